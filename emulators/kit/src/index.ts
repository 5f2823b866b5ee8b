/**
 * The kit every emulator is built with: its HTTP server, its state snapshot file, its fault rule
 * bookkeeping, the calls its test-only hold faults park, and its clock. Emulators import it only through
 * this entry.
 */
export { ManualClock, SYSTEM_CLOCK, type Clock } from "./clock";
export { FaultRules, matchesOperation } from "./fault-rules";
export { HOLD_AT_MOST_MS, Holds } from "./holds";
export { listen, type HttpServer, type ListenOptions, type RequestHandler } from "./http-server";
export { parseJsonObjectWith, readBodyUpTo, sendJson } from "./http-body";
export { SnapshotFile } from "./snapshot-file";
