import { loadRuntimeConfig } from "./config";

describe("runtime configuration", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
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
