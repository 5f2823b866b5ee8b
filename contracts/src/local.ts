/**
 * Facts of the local (emulator) stack that both web/ and functions/ need. Production never reads these.
 */
export const LOCAL_PROJECT_ID = "demo-alpvault";
/** The web app id of emulator builds; the API accepts unsigned App Check tokens only for this app. */
export const LOCAL_WEB_APP_ID = "1:000000000000:web:0000000000000000000000";

/** The seeded Google identity that the emulator-only "demo sign-in" uses. */
export const DEMO_GOOGLE_USER = {
  sub: "100000000000000000001",
  email: "anna.keller@alpine-demo.example",
  displayName: "Anna Keller",
} as const;
