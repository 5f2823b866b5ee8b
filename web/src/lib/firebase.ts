/**
 * The Firebase SDK, loaded after the first paint rather than with it (it is the heaviest part of the
 * console's JavaScript): `loadFirebase()` loads it once; `loadedFirebase()` is it, once loaded;
 * `onAuthState` follows the auth state from the moment the SDK is there. A browser that cannot restore a
 * session (no stored auth token) loads it only once the login or sign-up page shows (`AuthStep`).
 */
import type { User } from "firebase/auth";

export type FirebaseSdk = typeof import("./firebase-sdk");

let loading: Promise<FirebaseSdk> | undefined;
let loaded: FirebaseSdk | undefined;
/** Settles with the first load, whoever asks for it. */
let startLoading: (() => void) | undefined;
const firstLoad = new Promise<void>((resolve) => (startLoading = resolve)).then(() => loadFirebase());
// Its failure is reported to the listeners that wait for it, not as an unhandled rejection.
firstLoad.catch(() => undefined);

export function loadFirebase(): Promise<FirebaseSdk> {
  loading ??= import("./firebase-sdk").then((sdk) => (loaded = sdk));
  startLoading?.();
  return loading;
}

/** The SDK when it has loaded, else undefined. */
export function loadedFirebase(): FirebaseSdk | undefined {
  return loaded;
}

/** The signed-in user as far as the SDK knows (null before it has loaded). */
export function currentFirebaseUser(): User | null {
  return loaded?.auth.currentUser ?? null;
}

/**
 * Calls `listener` with each auth state, the first once the SDK has loaded and restored it; the answer
 * stops listening (also before the SDK is there).
 */
export function onAuthState(
  listener: (user: User | null) => void,
  failed: (error: unknown) => void = (error) =>
    console.warn("The sign-in service could not be loaded", error),
  /** False: wait until something else loads the SDK (a page that cannot be signed in yet). */
  load = true,
): () => void {
  let stop: (() => void) | undefined;
  let stopped = false;
  (load ? loadFirebase() : firstLoad).then(
    (sdk) => {
      if (!stopped) stop = sdk.onAuthStateChanged(sdk.auth, listener);
    },
    (error: unknown) => {
      if (!stopped) failed(error);
    },
  );
  return () => {
    stopped = true;
    stop?.();
  };
}
