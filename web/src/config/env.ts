/**
 * The build's configuration, read from `import.meta.env` once and validated as a whole: a missing key is
 * reported together with every other missing key, so a broken build names all of its gaps at once.
 */

export interface FirebaseWebConfig {
  apiKey: string;
  projectId: string;
  appId: string;
  authDomain: string;
}

export type Env =
  | {
      /** Emulator builds: Auth emulator, unsigned App Check tokens, demo sign-in. */
      useEmulators: true;
      firebase: FirebaseWebConfig;
      apiBaseUrl: string;
      authEmulatorUrl: string;
      /** The Workspace emulator's Marketplace listing, where the local demo installs the app. */
      marketplaceUrl: string;
    }
  | {
      useEmulators: false;
      firebase: FirebaseWebConfig;
      apiBaseUrl: string;
      recaptchaEnterpriseSiteKey: string;
    };

export class EnvError extends Error {
  constructor(readonly missing: readonly string[]) {
    super(`Missing or invalid configuration: ${missing.join(", ")}`);
    this.name = "EnvError";
  }
}

type RawEnv = Partial<Record<string, string | boolean | undefined>>;

export function parseEnv(raw: RawEnv): Env {
  const missing: string[] = [];
  const read = (key: string): string => {
    const value = raw[key];
    if (typeof value !== "string" || value.trim() === "") {
      missing.push(key);
      return "";
    }
    return value.trim();
  };

  const switchValue = raw.VITE_USE_EMULATORS;
  let useEmulators = false;
  if (switchValue === "true") useEmulators = true;
  else if (switchValue !== "false") missing.push("VITE_USE_EMULATORS (true or false)");

  const firebase: FirebaseWebConfig = {
    apiKey: read("VITE_FIREBASE_API_KEY"),
    projectId: read("VITE_FIREBASE_PROJECT_ID"),
    appId: read("VITE_FIREBASE_APP_ID"),
    authDomain: read("VITE_FIREBASE_AUTH_DOMAIN"),
  };
  const apiBaseUrl = read("VITE_API_BASE_URL").replace(/\/+$/, "");

  let env: Env;
  if (useEmulators) {
    env = {
      useEmulators,
      firebase,
      apiBaseUrl,
      authEmulatorUrl: read("VITE_AUTH_EMULATOR_URL"),
      marketplaceUrl: read("VITE_MARKETPLACE_URL"),
    };
  } else {
    env = {
      useEmulators,
      firebase,
      apiBaseUrl,
      recaptchaEnterpriseSiteKey: read("VITE_RECAPTCHA_ENTERPRISE_SITE_KEY"),
    };
  }
  if (missing.length > 0) throw new EnvError(missing);
  return env;
}

export const env: Env = parseEnv(import.meta.env as RawEnv);
