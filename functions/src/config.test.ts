import {
  loadEngineConfig,
  deployTimeQuotaConfig,
  loadQuotaConfig,
  loadRuntimeConfig,
  parseKeyEncryptionKey,
  withoutEmulatorCors,
} from "./config";

describe("runtime configuration", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  test("when the Functions emulator turns on its allow-any-origin CORS, then it is turned off and its other features kept", () => {
    process.env.FUNCTIONS_EMULATOR = "true";
    process.env.FIREBASE_DEBUG_FEATURES = JSON.stringify({ skipTokenVerification: true, enableCors: true });
    withoutEmulatorCors();
    expect(JSON.parse(process.env.FIREBASE_DEBUG_FEATURES)).toEqual({ skipTokenVerification: true });
  });

  test("when no quota model is configured, then the 2026 model with its own limits is used", () => {
    delete process.env.GOOGLE_QUOTA_MODEL;
    delete process.env.GMAIL_PROJECT_UNITS_PER_MINUTE;
    expect(loadQuotaConfig()).toEqual({ model: "2026", projectUnitsPerMinute: {} });
  });

  test("when the project keeps the legacy quotas with a raised Gmail limit, then that is the quota configuration", () => {
    process.env.GOOGLE_QUOTA_MODEL = "legacy";
    process.env.GMAIL_PROJECT_UNITS_PER_MINUTE = "2400000";
    expect(loadQuotaConfig()).toEqual({ model: "legacy", projectUnitsPerMinute: { gmail: 2_400_000 } });
  });

  test("when the quota model is unknown, then the configuration is refused", () => {
    process.env.GOOGLE_QUOTA_MODEL = "2019";
    expect(() => loadQuotaConfig()).toThrow(/GOOGLE_QUOTA_MODEL must be/);
  });

  test("when APP_CHECK_MODE is not set, then production verification is used", () => {
    delete process.env.APP_CHECK_MODE;
    delete process.env.FUNCTIONS_EMULATOR;
    expect(loadRuntimeConfig().appCheckMode).toBe("verify");
  });

  test("when unsigned App Check is asked for outside the Functions emulator, then the config is refused", () => {
    process.env.APP_CHECK_MODE = "emulator-unsigned";
    delete process.env.FUNCTIONS_EMULATOR;
    expect(() => loadRuntimeConfig()).toThrow(/refused outside the Functions emulator/);
  });

  test("when unsigned App Check is asked for inside the Functions emulator, then it is used", () => {
    process.env.APP_CHECK_MODE = "emulator-unsigned";
    process.env.FUNCTIONS_EMULATOR = "true";
    expect(loadRuntimeConfig().appCheckMode).toBe("emulator-unsigned");
  });

  test("when APP_CHECK_MODE has an unknown value, then the config is refused", () => {
    process.env.APP_CHECK_MODE = "off";
    expect(() => loadRuntimeConfig()).toThrow(/must be 'verify' or 'emulator-unsigned'/);
  });
});

describe("engine configuration", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  test("when the functions run in the emulator, then the Storage emulator and a fixed 32-byte development key are used", () => {
    process.env.FUNCTIONS_EMULATOR = "true";
    process.env.STORAGE_EMULATOR_HOST = "http://127.0.0.1:8092";
    const config = loadEngineConfig();
    expect(config.storageEmulatorHost).toBe("http://127.0.0.1:8092");
    expect(config.keyEncryptionKey()).toHaveLength(32);
    expect(config.keyEncryptionKey()).toEqual(loadEngineConfig().keyEncryptionKey());
  });

  test("when the functions run in production, then STORAGE_EMULATOR_HOST is ignored and the development key is never used", () => {
    delete process.env.FUNCTIONS_EMULATOR;
    process.env.STORAGE_EMULATOR_HOST = "http://127.0.0.1:8092";
    const config = loadEngineConfig();
    expect(config.storageEmulatorHost).toBeUndefined();
    expect(() => config.keyEncryptionKey()).toThrow();
  });

  test("when the key-encryption key is not exactly 32 bytes of base64, then it is refused", () => {
    const good = Buffer.alloc(32, 7).toString("base64");
    expect(parseKeyEncryptionKey(good)).toEqual(Buffer.alloc(32, 7));
    expect(() => parseKeyEncryptionKey(Buffer.alloc(16).toString("base64"))).toThrow(/32 bytes/);
    expect(() => parseKeyEncryptionKey("not base64!")).toThrow(/32 bytes/);
  });
});

describe("deployTimeQuotaConfig", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it("when the deploy's environment names a model and a raised Gmail quota, then they are read from it", () => {
    process.env.GOOGLE_QUOTA_MODEL = "legacy";
    process.env.GMAIL_PROJECT_UNITS_PER_MINUTE = "2400000";
    expect(deployTimeQuotaConfig()).toEqual({ model: "legacy", projectUnitsPerMinute: { gmail: 2_400_000 } });
  });

  it("when nothing is set, then the 2026 model applies; an unknown model is refused", () => {
    delete process.env.GOOGLE_QUOTA_MODEL;
    delete process.env.GMAIL_PROJECT_UNITS_PER_MINUTE;
    delete process.env.DRIVE_PROJECT_UNITS_PER_MINUTE;
    expect(deployTimeQuotaConfig()).toEqual({ model: "2026", projectUnitsPerMinute: {} });
    process.env.GOOGLE_QUOTA_MODEL = "2019";
    expect(() => deployTimeQuotaConfig()).toThrow(/GOOGLE_QUOTA_MODEL must be/);
  });
});
