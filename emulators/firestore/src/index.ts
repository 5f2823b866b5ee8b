/**
 * The Firestore emulator's public entry: what the local stack and benches use. Anything else under `src/`
 * is internal (lint refuses a deep import from outside the emulator).
 */
export { startFirestore, type RunningFirestore } from "./launcher";
export type { ReadStatsSnapshot, RequestReads } from "./stats";
