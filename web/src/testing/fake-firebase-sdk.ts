/**
 * The Firebase SDK of component tests, in place of `lib/firebase-sdk.ts` (jest's `web` project maps it
 * here): no Firebase code loads. It has a signed-in user whose ID token and App Check token are fixed
 * strings, and `fakeFirebase` lets a test sign in, sign out, or make the next sign-in fail. `lib/firebase.ts`
 * (loading on demand, following the auth state) stays the real one.
 */
import type { User } from "firebase/auth";

/** The user a test signs in as unless it names another. */
export const TEST_USER = {
  uid: "user-ada",
  email: "admin@alpvault-demo.test",
  displayName: "Ada Brunner",
  photoURL: null,
} as const;

export const TEST_ID_TOKEN = "test-id-token";
export const TEST_APP_CHECK_TOKEN = "test-app-check-token";

/** Who a test signs in as. */
export type TestUser = Pick<User, "uid" | "email" | "displayName" | "photoURL">;
type UserFacts = TestUser;
type Listener = (user: User | null) => void;

function userOf(facts: UserFacts): User {
  return { ...facts, getIdToken: () => Promise.resolve(TEST_ID_TOKEN) } as unknown as User;
}

const listeners = new Set<Listener>();
let signInFailure: Error | null = null;
/** Whom the next successful sign-in signs in. */
let nextUser: UserFacts = TEST_USER;

export const firebaseApp = { name: "[DEFAULT]" };
export const appCheck = { app: firebaseApp };
export const auth: { currentUser: User | null } = { currentUser: userOf(TEST_USER) };

function changeUser(user: User | null): void {
  auth.currentUser = user;
  for (const listener of [...listeners]) listener(user);
}

export function getToken(_appCheck: unknown, _forceRefresh?: boolean): Promise<{ token: string }> {
  return Promise.resolve({ token: TEST_APP_CHECK_TOKEN });
}

/** Like Firebase's: the current state first (asynchronously), then each change; the answer stops it. */
export function onAuthStateChanged(_auth: unknown, listener: Listener): () => void {
  listeners.add(listener);
  let stopped = false;
  void Promise.resolve().then(() => {
    if (!stopped) listener(auth.currentUser);
  });
  return () => {
    stopped = true;
    listeners.delete(listener);
  };
}

export class GoogleAuthProvider {
  parameters: Record<string, string> = {};
  setCustomParameters(parameters: Record<string, string>): this {
    this.parameters = parameters;
    return this;
  }
  static credential(idToken: string): { idToken: string } {
    return { idToken };
  }
}

async function signIn(): Promise<{ user: User }> {
  if (signInFailure) {
    const failure = signInFailure;
    signInFailure = null;
    throw failure;
  }
  const user = userOf(nextUser);
  changeUser(user);
  return { user };
}

export const signInWithPopup = (_auth: unknown, _provider: GoogleAuthProvider) => signIn();
export const signInWithCredential = (_auth: unknown, _credential: unknown) => signIn();

export function signOut(_auth: unknown): Promise<void> {
  changeUser(null);
  return Promise.resolve();
}

/** What a test changes about sign-in. */
export const fakeFirebase = {
  /** Signs `facts` in at once (listeners hear it), as a sign-in elsewhere would. */
  signIn(facts: UserFacts = TEST_USER): void {
    changeUser(userOf(facts));
  },
  signOut(): void {
    changeUser(null);
  },
  /** The next sign-in (popup or demo) fails with `error`. */
  failNextSignIn(error: Error): void {
    signInFailure = error;
  },
  /** Whom the next successful sign-in signs in. */
  signInNextAs(facts: UserFacts): void {
    nextUser = facts;
  },
  /** Back to the signed-in test user, no listeners' changes pending, no failure armed. */
  reset(): void {
    signInFailure = null;
    nextUser = TEST_USER;
    auth.currentUser = userOf(TEST_USER);
  },
};
