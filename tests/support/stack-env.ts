/**
 * Where the running local stack is, for suites that talk to it (the test runner starts it and sets these).
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run these tests through 'npm test', which starts the local stack`);
  }
  return value;
}

export const stackEnv = {
  get webUrl(): string {
    return process.env.ALPVAULT_WEB_URL ?? "http://127.0.0.1:5000";
  },
  get authEmulatorHost(): string {
    return required("FIREBASE_AUTH_EMULATOR_HOST");
  },
  /** The Functions emulator (`http://host:port`); a function is at `/<project>/<location>/<name>`. */
  get functionsUrl(): string {
    return process.env.ALPVAULT_FUNCTIONS_URL ?? "http://127.0.0.1:5001";
  },
  get projectId(): string {
    return process.env.GCLOUD_PROJECT ?? "demo-alpvault";
  },
  get workspaceUrl(): string {
    return required("WORKSPACE_EMULATOR_URL");
  },
  get workspaceKeyFile(): string {
    return required("WORKSPACE_SERVICE_ACCOUNT_KEY_FILE");
  },
};
