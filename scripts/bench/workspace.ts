/**
 * Workspace emulator throughput: `messages.get?format=raw` through the official Gmail client, the call a
 * mailbox backup makes most. One user with about 2,000 realistic messages (20-60 KB, text, HTML and
 * attachments), quotas off, 16 calls in flight. The emulator must never be the bottleneck (>= 2,000/s).
 */
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { Worker, isMainThread, parentPort, workerData, type MessagePort } from "node:worker_threads";

import { gmail_v1 } from "@googleapis/gmail";

import {
  emulatorJwt,
  SCOPES,
  type ServiceAccountKey,
  startWorkspaceEmulator,
  testMessage,
} from "../../emulators/workspace/src/index";
import { timed, type BenchResult } from "./types";

const DOMAIN = "bench-gmail.test";
const USER = `mailbox@${DOMAIN}`;
const MESSAGES = 2_000;
const CALLS = 5_000;
const CONCURRENCY = 16;

/** A deterministic pseudo-random sequence, so every run measures the same mailbox. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = "the report budget meeting schedule quarterly review draft invoice team project update client"
  .split(" ")
  .concat("Zürich naïve café résumé".split(" "));

function message(index: number, next: () => number): Buffer {
  const size = 20_000 + Math.floor(next() * 40_000);
  const words: string[] = [];
  let length = 0;
  while (length < size / 3) {
    const word = WORDS[Math.floor(next() * WORDS.length)] as string;
    words.push(word);
    length += word.length + 1;
  }
  const text = words.join(" ").replace(/(.{1,72})( |$)/g, "$1\r\n");
  const attachment = Buffer.alloc(Math.max(0, size - length * 2));
  for (let byte = 0; byte < attachment.length; byte += 1) attachment[byte] = Math.floor(next() * 256);
  return testMessage({
    subject: `Bench message ${index}`,
    from: `Sender ${index % 50} <sender${index % 50}@example.org>`,
    to: USER,
    messageId: `bench-${index}@example.org`,
    date: new Date(Date.UTC(2025, 0, 1) + index * 3_600_000),
    text: text.replace(/=/g, ""),
    attachments:
      attachment.length > 0
        ? [{ filename: `file-${index}.bin`, contentType: "application/octet-stream", data: attachment }]
        : [],
  });
}

interface Seeded {
  url: string;
  key: ServiceAccountKey;
  ids: string[];
  bytes: number;
}

/**
 * CPU time of the calling thread (Linux: /proc/thread-self/stat, in clock ticks of 10 ms), so a busy
 * machine does not count against the emulator; elsewhere its event loop's busy wall time.
 */
function busyMs(): number {
  try {
    const stat = readFileSync("/proc/thread-self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return performance.eventLoopUtilization().active;
  }
}

/**
 * The emulator side, in its own thread so it has a core of its own and its busy time can be measured apart
 * from the client's: it seeds the mailbox, then answers `measure` (event-loop utilisation since the last
 * `measure`) and `stop`.
 */
async function emulatorThread(port: MessagePort): Promise<void> {
  const running = await startWorkspaceEmulator({ port: 0, profile: "empty", quota: { enabled: false } });
  const { emulator, url } = running;
  emulator.directory.addCustomer({ domain: DOMAIN, installed: true, scopes: [SCOPES.gmailReadonly] });
  const user = emulator.directory.addUser({ email: USER, givenName: "Bench", familyName: "Mailbox" });
  const next = random(42);
  const ids: string[] = [];
  let bytes = 0;
  for (let index = 0; index < MESSAGES; index += 1) {
    const raw = message(index, next);
    bytes += raw.length;
    ids.push(emulator.gmail.insertMessage(user.id, raw).id);
  }
  let baseline = busyMs();
  port.on("message", (command: string) => {
    if (command === "measure") {
      const now = busyMs();
      port.postMessage({ activeMs: now - baseline });
      baseline = now;
    } else if (command === "stop") {
      void running.stop().then(() => port.close());
    }
  });
  const seeded: Seeded = { url, key: emulator.oauth.serviceAccount, ids, bytes };
  port.postMessage(seeded);
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === "workspace-emulator") {
  void emulatorThread(parentPort as MessagePort);
}

function reply<T>(worker: Worker, command?: string): Promise<T> {
  return new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`The emulator thread exited (${code}).`)));
    if (command) worker.postMessage(command);
  });
}

export async function benchWorkspaceEmulator(): Promise<BenchResult[]> {
  // tsx compiles this file in the worker too.
  const worker = new Worker(`require("tsx/cjs"); require(${JSON.stringify(__filename)});`, {
    eval: true,
    workerData: { role: "workspace-emulator" },
  });
  try {
    const { url, key, ids, bytes } = await reply<Seeded>(worker);
    const gmail = new gmail_v1.Gmail({
      auth: emulatorJwt(url, key, { subject: USER, scopes: [SCOPES.gmailReadonly] }),
      rootUrl: `${url}/`,
    });
    // Token and connections warm, as in a long backup run.
    await gmail.users.messages.get({ userId: "me", id: ids[0] as string, format: "raw" });
    await reply(worker, "measure");

    let calls = 0;
    let received = 0;
    let mismatches = 0;
    const milliseconds = await timed(async () => {
      const client = async (): Promise<void> => {
        while (calls < CALLS) {
          const index = calls % ids.length;
          calls += 1;
          const { data } = await gmail.users.messages.get({
            userId: "me",
            id: ids[index] as string,
            format: "raw",
          });
          if (data.id !== ids[index] || !data.raw) mismatches += 1;
          received += data.raw?.length ?? 0;
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, client));
    });
    const { activeMs } = await reply<{ activeMs: number }>(worker, "measure");
    const endToEnd = Math.round((CALLS / milliseconds) * 1000);
    const capacity = Math.round((CALLS / activeMs) * 1000);
    console.log(
      `Gmail messages.get?format=raw: emulator serves ${capacity} messages/s per core of CPU time ` +
        `(${endToEnd}/s end to end with the official client; ${CALLS} calls, concurrency ${CONCURRENCY})`,
    );
    const name = `Gmail messages.get?format=raw, concurrency ${CONCURRENCY} (${ids.length} messages, avg ${Math.round(bytes / ids.length / 1024)} KB)`;
    return [
      {
        name: `${name}, end to end (official client)`,
        operations: CALLS,
        milliseconds,
        note: `${Math.round(received / 1024 / 1024)} MB base64url received; mismatches: ${mismatches}`,
      },
      {
        name: `${name}, emulator CPU time (its own thread)`,
        operations: CALLS,
        milliseconds: activeMs,
        note: `${capacity} messages/s per core (target >= 2000)`,
      },
    ];
  } finally {
    await reply(worker, "stop").catch(() => undefined);
    await worker.terminate();
  }
}
