/**
 * The KMS emulator's public entry: what the local stack and tests use. Anything else under `src/` is
 * internal (lint refuses a deep import from outside the emulator).
 */
export { emulatorKmsClient } from "./client";
export { startKmsEmulator, type RunningKmsEmulator } from "./server";
