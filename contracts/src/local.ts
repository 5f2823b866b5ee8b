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

/**
 * The local stack's regional API hosts: Hosting serves each region's API as a site of its own (firebase.json
 * `hosting` targets `api-<region>`), on the port the Hosting emulator gives the n-th site (5000, then
 * 5000 + 4 + n). Production serves them at `<region>.api.<API_BASE_DOMAIN>`.
 */
export const LOCAL_REGION_API_PORTS = { ch: 5005, eu: 5006, us: 5007 } as const;

/** The web app's origins on the local stack: the only ones the regional APIs answer cross-origin calls of. */
export const LOCAL_WEB_ORIGINS = ["http://127.0.0.1:5000", "http://localhost:5000"] as const;
