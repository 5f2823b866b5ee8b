/**
 * The only place that reads configuration. Values come from firebase-functions params (`.env`,
 * `.env.<project>`, `.env.local` in the emulator) or from the runtime itself.
 */
import { defineString } from "firebase-functions/params";
import { LOCAL_WEB_APP_ID } from "@alpvault/contracts/local";

/**
 * How App Check tokens are checked: `verify` (production: `getAppCheck().verifyToken()`) or
 * `emulator-unsigned` (local stack: unsigned tokens whose claims are checked). Unsigned tokens are
 * accepted only when the code runs inside the Functions emulator, whatever this says.
 */
export const appCheckModeParam = defineString("APP_CHECK_MODE", {
  default: "verify",
  description: "App Check verification: 'verify' (production) or 'emulator-unsigned' (local stack only)",
});

/** Region of the global API and scheduler (data residency for organisation data is per organisation). */
export const GLOBAL_REGION = "europe-west6";

export type AppCheckMode = "verify" | "emulator-unsigned";

export interface RuntimeConfig {
  appCheckMode: AppCheckMode;
  projectId: string;
  /** App ids whose unsigned tokens the emulator mode accepts. */
  emulatorAppIds: readonly string[];
  runningInEmulator: boolean;
}

function projectIdFromEnv(): string {
  const fromConfig = process.env.FIREBASE_CONFIG ? safeProjectId(process.env.FIREBASE_CONFIG) : undefined;
  return fromConfig ?? process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT ?? "demo-alpvault";
}

function safeProjectId(firebaseConfig: string): string | undefined {
  try {
    const parsed = JSON.parse(firebaseConfig) as { projectId?: unknown };
    return typeof parsed.projectId === "string" ? parsed.projectId : undefined;
  } catch {
    return undefined;
  }
}

/** Reads and checks the runtime configuration. Throws when the combination is unsafe. */
export function loadRuntimeConfig(): RuntimeConfig {
  const runningInEmulator = process.env.FUNCTIONS_EMULATOR === "true";
  // Param defaults apply at deploy time; a runtime without the variable reads '' and gets the safe mode.
  const mode = appCheckModeParam.value() || "verify";
  if (mode !== "verify" && mode !== "emulator-unsigned") {
    throw new Error(`APP_CHECK_MODE must be 'verify' or 'emulator-unsigned', got '${mode}'`);
  }
  if (mode === "emulator-unsigned" && !runningInEmulator) {
    throw new Error("APP_CHECK_MODE=emulator-unsigned is refused outside the Functions emulator");
  }
  return {
    appCheckMode: mode,
    projectId: projectIdFromEnv(),
    emulatorAppIds: [LOCAL_WEB_APP_ID],
    runningInEmulator,
  };
}
