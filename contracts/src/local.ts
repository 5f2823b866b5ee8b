/**
 * Facts of the local (emulator) stack that both web/ and functions/ need. Production never reads these.
 */
export const LOCAL_PROJECT_ID = "demo-alpvault";
/** The web app id of emulator builds; the API accepts unsigned App Check tokens only for this app. */
export const LOCAL_WEB_APP_ID = "1:000000000000:web:0000000000000000000000";

/**
 * The seeded Google identity that the emulator-only "demo sign-in" uses: the super admin of the demo
 * Workspace the Workspace emulator generates (`sub` is their Directory user id, as Google's is).
 */
export const DEMO_GOOGLE_USER = {
  sub: "136180281855955327032",
  email: "admin@alpvault-demo.test",
  displayName: "Ada Brunner",
} as const;
