/**
 * The Firebase SDK, loaded after the first paint rather than with it (it is the heaviest part of the
 * console's JavaScript): `loadFirebase()` loads it once; `loadedFirebase()` is it, once loaded;
 * `onAuthState` follows the auth state from the moment the SDK is there.
 */
import type { User } from "firebase/auth";

export type FirebaseSdk = typeof import("./firebase-sdk");

let loading: Promise<FirebaseSdk> | undefined;
let loaded: FirebaseSdk | undefined;

export function loadFirebase(): Promise<FirebaseSdk> {
  loading ??= import("./firebase-sdk").then((sdk) => (loaded = sdk));
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
): () => void {
  let stop: (() => void) | undefined;
  let stopped = false;
  loadFirebase().then(
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
