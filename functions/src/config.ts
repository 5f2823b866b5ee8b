/**
 * The only place that reads configuration. Values come from firebase-functions params (`.env`,
 * `.env.<project>`, `.env.local` in the emulator) or from the runtime itself.
 */
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { defineInt, defineSecret, defineString } from "firebase-functions/params";
import { LOCAL_REGION_API_PORTS, LOCAL_WEB_APP_ID, LOCAL_WEB_ORIGINS } from "@alpvault/contracts/local";
import type { RegionId } from "@alpvault/contracts/regions";
import type { QuotaModelName } from "./engine/google/costs";

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

/**
 * The Functions emulator turns on a CORS policy for every HTTPS function that allows any origin and
 * answers preflights before the function runs (`FIREBASE_DEBUG_FEATURES.enableCors`); production does no
 * such thing. Turning it off, before the functions are defined, keeps the local stack as strict as
 * production: browsers meet the API's own CORS policy (`webOrigins`) only.
 */
export function withoutEmulatorCors(): void {
  const features = process.env.FIREBASE_DEBUG_FEATURES;
  if (process.env.FUNCTIONS_EMULATOR !== "true" || !features) return;
  try {
    const parsed = JSON.parse(features) as Record<string, unknown>;
    delete parsed.enableCors;
    process.env.FIREBASE_DEBUG_FEATURES = JSON.stringify(parsed);
  } catch {
    // Not JSON: firebase-functions reads no feature from it either.
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

/**
 * The service-account key (JSON) of our Workspace app, whose client id the customer's admin authorises for
 * domain-wide delegation. Production: Secret Manager. Local stack: the file the Workspace emulator writes.
 */
export const workspaceServiceAccountKey = defineSecret("WORKSPACE_SERVICE_ACCOUNT_KEY");

/** Stripe's API key and the signing secret of our webhook endpoint (production payments). */
export const stripeSecretKey = defineSecret("STRIPE_SECRET_KEY");
export const stripeWebhookSecret = defineSecret("STRIPE_WEBHOOK_SECRET");

/** Secrets the API binds: none inside the emulator, which has no Secret Manager and reads the key file. */
export function apiSecrets(): ReturnType<typeof defineSecret>[] {
  return process.env.FUNCTIONS_EMULATOR === "true"
    ? []
    : [workspaceServiceAccountKey, stripeSecretKey, stripeWebhookSecret, defaultKeyEncryptionKey];
}

/** Secrets the backup worker binds (none inside the emulator: the key file and a development key). */
export function workerSecrets(): ReturnType<typeof defineSecret>[] {
  return process.env.FUNCTIONS_EMULATOR === "true"
    ? []
    : [workspaceServiceAccountKey, defaultKeyEncryptionKey];
}

/** Days between a failed payment and the stop of backups (the graceful period). */
export const gracefulPeriodDaysParam = defineInt("GRACEFUL_PERIOD_DAYS", {
  default: 14,
  description: "Days after a failed payment before backups stop",
});

/**
 * Payments: Stripe in production; inside the Functions emulator the local sandbox provider, whose
 * webhook events are signed with a fixed local secret (not a real secret: it only exists locally).
 */
export interface BillingConfig {
  provider: "stripe" | "sandbox";
  stripeSecretKey(): string;
  webhookSecret(): string;
  gracefulPeriodDays: number;
}

export function loadBillingConfig(localWebhookSecret: string): BillingConfig {
  const sandbox = process.env.FUNCTIONS_EMULATOR === "true";
  // Unset at run time reads 0: the default applies.
  const days = gracefulPeriodDaysParam.value();
  return {
    provider: sandbox ? "sandbox" : "stripe",
    stripeSecretKey: () => stripeSecretKey.value(),
    webhookSecret: () => (sandbox ? localWebhookSecret : stripeWebhookSecret.value()),
    gracefulPeriodDays: Number.isInteger(days) && days > 0 ? days : 14,
  };
}

export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
}

export interface WorkspaceConfig {
  /** The Workspace emulator's URL; set only inside the Functions emulator. Production talks to Google. */
  emulatorUrl: string | undefined;
  serviceAccountKey(): ServiceAccountKey;
}

function parseKey(text: string, source: string): ServiceAccountKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`The Workspace service-account key in ${source} is not JSON`);
  }
  const key = parsed as Partial<ServiceAccountKey>;
  if (typeof key.client_email !== "string" || typeof key.private_key !== "string") {
    throw new Error(`The Workspace service-account key in ${source} lacks client_email or private_key`);
  }
  return { client_email: key.client_email, private_key: key.private_key };
}

export function loadWorkspaceConfig(): WorkspaceConfig {
  const runningInEmulator = process.env.FUNCTIONS_EMULATOR === "true";
  const emulatorUrl = runningInEmulator ? process.env.WORKSPACE_EMULATOR_URL : undefined;
  const keyFile = runningInEmulator ? process.env.WORKSPACE_SERVICE_ACCOUNT_KEY_FILE : undefined;
  return {
    emulatorUrl,
    // Read on every use: the emulator writes a new key at each start.
    serviceAccountKey: () =>
      keyFile
        ? parseKey(readFileSync(keyFile, "utf8"), keyFile)
        : parseKey(workspaceServiceAccountKey.value(), "WORKSPACE_SERVICE_ACCOUNT_KEY"),
  };
}

/**
 * The API host of each region. Production: `<region id>.api.<API_BASE_DOMAIN>`, a Hosting site of its own
 * whose `/v1/**` goes to the region's `api` function. The local stack serves each region's site on its
 * own port (LOCAL_REGION_API_PORTS).
 */
export const apiBaseDomainParam = defineString("API_BASE_DOMAIN", {
  default: "alpvault.app",
  description: "Parent domain of the regional API hosts (<region>.api.<domain>)",
});

export function regionApiDomain(regionId: RegionId): string {
  if (process.env.FUNCTIONS_EMULATOR === "true") return `127.0.0.1:${LOCAL_REGION_API_PORTS[regionId]}`;
  return `${regionId}.api.${apiBaseDomainParam.value() || "alpvault.app"}`;
}

/** The base URL of a region's API (`https://<domain>/v1`; http on the local stack). */
export function regionApiUrl(regionId: RegionId): string {
  const scheme = process.env.FUNCTIONS_EMULATOR === "true" ? "http" : "https";
  return `${scheme}://${regionApiDomain(regionId)}/v1`;
}

/** The web app's origins (comma-separated): the regional APIs answer cross-origin calls from these only. */
export const webOriginsParam = defineString("WEB_ORIGINS", {
  default: "",
  description:
    "Origins of the web app (https://app.example.com), comma-separated, for the regional APIs' CORS",
});

export function webOrigins(): string[] {
  if (process.env.FUNCTIONS_EMULATOR === "true") return [...LOCAL_WEB_ORIGINS];
  return (webOriginsParam.value() || "")
    .split(",")
    .map((origin) => origin.trim())
    .filter((origin) => origin.length > 0);
}

export interface KmsConfig {
  /**
   * `host:port` of the Cloud KMS emulator (`KMS_EMULATOR_HOST`); set only inside the Functions emulator.
   * Production talks to Cloud KMS with the function's service account.
   */
  emulatorHost: string | undefined;
}

export function loadKmsConfig(): KmsConfig {
  const runningInEmulator = process.env.FUNCTIONS_EMULATOR === "true";
  return { emulatorHost: runningInEmulator ? process.env.KMS_EMULATOR_HOST || undefined : undefined };
}

/**
 * The built-in default key (docs/requirements.md#data-the-console-shows "a built-in default AES key"): the key-encryption key that wraps the
 * data keys of organisations whose default secret is the built-in one. 32 bytes, base64, in Secret Manager.
 */
export const defaultKeyEncryptionKey = defineSecret("DEFAULT_KEY_ENCRYPTION_KEY");

/**
 * Inside the Functions emulator only: a fixed development key-encryption key. It protects nothing real
 * (local data only) and is refused anywhere else.
 */
const LOCAL_KEY_ENCRYPTION_KEY = createHash("sha256")
  .update("alpvault local development key-encryption key")
  .digest();

/** The local stack's development key-encryption key (tests read local backups with it). */
export function localKeyEncryptionKey(): Buffer {
  return Buffer.from(LOCAL_KEY_ENCRYPTION_KEY);
}

/**
 * Google's quota model of this deployment's project: "2026" for projects created since Google's 2026
 * model, "legacy" for projects active before it (they keep their quotas). Raised project limits (units per
 * minute) over the model's; 0 keeps the model's.
 */
export const googleQuotaModelParam = defineString("GOOGLE_QUOTA_MODEL", {
  default: "2026",
  description: "Google quota model of the project: '2026' or 'legacy'",
});
export const gmailProjectUnitsParam = defineInt("GMAIL_PROJECT_UNITS_PER_MINUTE", {
  default: 0,
  description: "The project's Gmail units per minute when Google raised it (0: the model's)",
});
export const driveProjectUnitsParam = defineInt("DRIVE_PROJECT_UNITS_PER_MINUTE", {
  default: 0,
  description: "The project's Drive units per minute when Google raised it (0: the model's)",
});

export interface QuotaConfig {
  model: QuotaModelName;
  /** Project limits over the model's. */
  projectUnitsPerMinute: { gmail?: number; drive?: number };
}

function quotaConfigOf(model: string, gmailUnits: number, driveUnits: number): QuotaConfig {
  if (model !== "2026" && model !== "legacy") {
    throw new Error(`GOOGLE_QUOTA_MODEL must be '2026' or 'legacy', got '${model}'`);
  }
  const raised = (value: number) => (Number.isInteger(value) && value > 0 ? value : undefined);
  const gmail = raised(gmailUnits);
  const drive = raised(driveUnits);
  return {
    model,
    projectUnitsPerMinute: { ...(gmail ? { gmail } : {}), ...(drive ? { drive } : {}) },
  };
}

/** Reads the quota configuration; an unknown model is refused. */
export function loadQuotaConfig(): QuotaConfig {
  // Param defaults apply at deploy time; a runtime without the variable reads '' or 0: the defaults.
  return quotaConfigOf(
    googleQuotaModelParam.value() || "2026",
    gmailProjectUnitsParam.value(),
    driveProjectUnitsParam.value(),
  );
}

/**
 * The quota configuration while the functions are being deployed (the queues' concurrency is fixed
 * then): the same variables, read from the environment the deploy loads from the project's .env files,
 * since parameters have no value before runtime.
 */
export function deployTimeQuotaConfig(): QuotaConfig {
  return quotaConfigOf(
    process.env.GOOGLE_QUOTA_MODEL || "2026",
    Number(process.env.GMAIL_PROJECT_UNITS_PER_MINUTE ?? 0),
    Number(process.env.DRIVE_PROJECT_UNITS_PER_MINUTE ?? 0),
  );
}

export interface EngineConfig {
  projectId: string;
  /** The Cloud Storage emulator (`STORAGE_EMULATOR_HOST`); set only inside the Functions emulator. */
  storageEmulatorHost: string | undefined;
  /** The built-in key-encryption key (32 bytes). */
  keyEncryptionKey(): Buffer;
}

/** Decodes the built-in key-encryption key: exactly 32 bytes of base64, or the configuration is refused. */
export function parseKeyEncryptionKey(value: string): Buffer {
  const key = Buffer.from(value.trim(), "base64");
  if (key.length !== 32 || key.toString("base64") !== value.trim()) {
    throw new Error("DEFAULT_KEY_ENCRYPTION_KEY must be 32 bytes in base64");
  }
  return key;
}

export function loadEngineConfig(): EngineConfig {
  const runningInEmulator = process.env.FUNCTIONS_EMULATOR === "true";
  return {
    projectId: process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT ?? "demo-alpvault",
    storageEmulatorHost: runningInEmulator ? process.env.STORAGE_EMULATOR_HOST || undefined : undefined,
    keyEncryptionKey: () =>
      runningInEmulator
        ? Buffer.from(LOCAL_KEY_ENCRYPTION_KEY)
        : parseKeyEncryptionKey(defaultKeyEncryptionKey.value()),
  };
}
