/**
 * The Cloud Storage emulator's public entry: what the local stack, benches and tests use. Anything else
 * under `src/` is internal (lint refuses a deep import from outside the emulator).
 */
export { startStorageEmulator, storageStateFile, type RunningStorageEmulator } from "./server";
