/**
 * The kit every emulator is built with: its HTTP server, its state snapshot file and its fault rule
 * bookkeeping. Emulators import it only through this entry.
 */
export { FaultRules, matchesOperation } from "./fault-rules";
export { listen, type HttpServer, type ListenOptions, type RequestHandler } from "./http-server";
export { parseJsonObjectWith, readBodyUpTo, sendJson } from "./http-body";
export { SnapshotFile } from "./snapshot-file";
