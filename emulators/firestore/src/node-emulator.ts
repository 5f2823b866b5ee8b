/**
 * Our Node Firestore emulator: a gRPC server speaking the Firestore v1 protocol over an in-memory
 * store, optionally loaded from and saved to a data directory.
 */
import type { Server as HttpServer } from "node:http";
import { createServer } from "node:net";

import { Server, ServerCredentials } from "@grpc/grpc-js";

import { adminOnly } from "./access";
import { IndexCatalog } from "./indexes";
import { loadStore, saveStore } from "./persistence";
import { firestoreServiceDefinition, FirestoreService } from "./service";
import { startStatsServer } from "./stats-http";
import { Store } from "./store";

export class PortInUseError extends Error {
  constructor(host: string, port: number, cause: string) {
    super(
      `Port ${port} is in use: ${cause} (host ${host}). Stop whatever listens there or choose another port.`,
    );
  }
}

/** Fails fast with a clear message when something already listens on host:port. */
export function assertPortFree(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      reject(error.code === "EADDRINUSE" ? new PortInUseError(host, port, error.message) : error);
    });
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

export interface NodeEmulatorOptions {
  host: string;
  port: number;
  dataDir?: string;
  /** `firestore.indexes.json` files whose composite indexes and field overrides queries may use. */
  indexesFiles?: readonly string[];
  /** Serve queries that need an undeclared index instead of refusing them (ad-hoc use only). */
  relaxedIndexes?: boolean;
  /** Serve the read figures over HTTP on this port (see stats-http.ts). */
  statsPort?: number;
}

export class NodeFirestoreEmulator {
  readonly store = new Store();
  readonly service: FirestoreService;
  private readonly server = new Server({ "grpc.max_receive_message_length": 64 * 1024 * 1024 });
  private started = false;
  private statsServer?: HttpServer;

  constructor(readonly options: NodeEmulatorOptions) {
    this.service = new FirestoreService(this.store, {
      indexes: IndexCatalog.fromFiles(options.indexesFiles ?? []),
      relaxedIndexes: options.relaxedIndexes,
    });
    // Only the admin credential gets through, as with Alpvault's deny-all rules (see access.ts).
    this.server.addService(
      firestoreServiceDefinition,
      adminOnly(firestoreServiceDefinition, this.service.implementation()),
    );
  }

  async start(): Promise<void> {
    const { host, port, dataDir, statsPort } = this.options;
    await assertPortFree(host, port);
    if (statsPort !== undefined) await assertPortFree(host, statsPort);
    if (dataDir) await loadStore(this.store, dataDir);
    await new Promise<void>((resolve, reject) => {
      this.server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (error) => {
        if (error) {
          reject(
            /in use|EADDRINUSE/i.test(error.message) ? new PortInUseError(host, port, error.message) : error,
          );
        } else resolve();
      });
    });
    if (statsPort !== undefined)
      this.statsServer = await startStatsServer(this.service.stats, host, statsPort);
    this.started = true;
  }

  /** Writes the current state to the data directory (no-op without one). */
  async save(): Promise<void> {
    if (this.options.dataDir) await saveStore(this.store, this.options.dataDir);
  }

  async stop(options: { save?: boolean } = {}): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.service.transactions.abortAll();
    const statsServer = this.statsServer;
    this.statsServer = undefined;
    if (statsServer) await new Promise<void>((resolve) => statsServer.close(() => resolve()));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, 2000);
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (options.save) await this.save();
  }
}
