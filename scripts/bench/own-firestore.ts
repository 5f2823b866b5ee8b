/**
 * A Firestore emulator of a bench section's own, on free ports, with this process's firebase-admin pointed
 * at it (set before the product's modules are loaded: firebase-admin reads the address when a database is
 * first used).
 *
 * - `in: "this process"`: the emulator runs in the section's process (quick to start; its documents share
 *   the section's heap, so the section's timings include the collections of that heap).
 * - `in: "its own process"`: the emulator runs as `emulators/firestore/src/cli.ts` in a child process with
 *   a heap of its own, as on the local stack (where `npm start` runs it beside the functions), and reports
 *   its reads over its stats port. The scale bench's searches are timed this way.
 *
 * `billedReads()` is the emulator's own count of the reads it billed (null when it does not count them:
 * the official emulator).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { startFirestore, type ReadStatsSnapshot } from "../../emulators/firestore/src/index";
import { freePort, ROOT } from "../ports";

export interface OwnFirestore {
  /** "node" (ours) or "official". */
  kind: string;
  /** The reads the emulator billed since it started, or null when it does not count them. */
  billedReads(): Promise<number | null>;
  stop(): Promise<void>;
}

export interface OwnFirestoreOptions {
  in: "this process" | "its own process";
  /** The child's heap limit (its own process only). */
  heapMiB?: number;
}

function pointClientsAt(host: string, port: number): void {
  process.env.FIRESTORE_EMULATOR_HOST = `${host}:${port}`;
  process.env.GCLOUD_PROJECT ??= "demo-alpvault";
  process.env.METADATA_SERVER_DETECTION ??= "none";
}

async function inThisProcess(): Promise<OwnFirestore> {
  const emulator = await startFirestore({ port: await freePort() });
  pointClientsAt(emulator.host, emulator.port);
  return {
    kind: emulator.kind,
    billedReads: () => Promise.resolve(emulator.reads ? emulator.reads.snapshot().totals.billedReads : null),
    stop: () => emulator.stop(),
  };
}

/** Resolves with the emulator's kind once the child prints that it listens; rejects if it ends first. */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on("line", (line) => {
      const started = /^Firestore emulator \((\w+)\) listening/.exec(line);
      if (started) resolve(started[1] as string);
    });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(new Error(`the Firestore emulator ended before listening (${signal ?? `exit code ${code}`})`)),
    );
  });
}

async function inItsOwnProcess(heapMiB: number): Promise<OwnFirestore> {
  const host = "127.0.0.1";
  const [port, statsPort] = [await freePort(), await freePort()];
  const child = spawn(
    process.execPath,
    [
      `--max-old-space-size=${heapMiB}`,
      "--import",
      "tsx",
      join(ROOT, "emulators", "firestore", "src", "cli.ts"),
      ...["--host", host, "--port", String(port), "--stats-port", String(statsPort)],
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  const ended = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let kind: string;
  try {
    kind = await listening(child);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  pointClientsAt(host, port);
  return {
    kind,
    async billedReads() {
      if (kind !== "node") return null;
      const answer = await fetch(`http://${host}:${statsPort}/emulator/v1/stats`);
      if (!answer.ok) throw new Error(`the emulator's stats answered ${answer.status}`);
      return ((await answer.json()) as ReadStatsSnapshot).totals.billedReads;
    },
    async stop() {
      child.kill("SIGTERM");
      await ended;
    },
  };
}

export function ownFirestore(options: OwnFirestoreOptions): Promise<OwnFirestore> {
  return options.in === "this process" ? inThisProcess() : inItsOwnProcess(options.heapMiB ?? 4096);
}
