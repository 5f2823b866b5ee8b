/**
 * Pacing on the wire for the latency model: an answer's first byte held back and its body written at the
 * download bandwidth (`paceResponse`), its bytes counted when the model is off (`countResponseBytes`), and
 * a request body read at the caller's upload bandwidth (`inboundPacer`).
 */
import type { ServerResponse } from "node:http";
import { SYSTEM_CLOCK, type Clock } from "../../kit/src/index";
import { MiB } from "./latency";

/** Bytes sent at once when a stream starts (about one TCP window), then the bandwidth applies. */
const BURST_BYTES = 16 * 1024;
/** Largest piece written to the socket at a time. */
const SLICE_BYTES = 64 * 1024;
/** Bytes queued before `write()` asks the writer to wait for `drain`. */
const HIGH_WATER_BYTES = 256 * 1024;
/** Shortest pause between two paced writes. */
const TICK_MS = 4;

export interface ResponsePacing {
  /** The clock the answer's time passes on. */
  clock: Clock;
  /** The instant (ms since the epoch, on `clock`) before which no byte of the answer is sent. */
  firstByteAt: number;
  /** Extra time to the first byte per MiB of the answer's declared length. */
  perMiBMs: number;
  bytesPerSecond: number;
  /** Called with each piece's size as it is sent. */
  onBytes?: (bytes: number) => void;
  /** Called with the status and headers the handler writes. */
  onHeaders?: (status: number, headers: Record<string, string>) => void;
}

export interface PacedResponse {
  /** Moves the first byte later (a fault's added latency). */
  delay(ms: number): void;
}

type WriteCallback = (error?: Error | null) => void;

function headerRecord(args: unknown[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const arg of args) {
    if (Array.isArray(arg)) {
      for (let index = 0; index + 1 < arg.length; index += 2) {
        out[String(arg[index]).toLowerCase()] = String(arg[index + 1]);
      }
    } else if (typeof arg === "object" && arg !== null) {
      for (const [key, value] of Object.entries(arg)) out[key.toLowerCase()] = String(value);
    }
  }
  return out;
}

function toBuffer(chunk: unknown, encoding: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (typeof chunk === "string")
    return Buffer.from(chunk, (encoding as BufferEncoding | undefined) ?? "utf8");
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk));
}

/** Where an intercepted answer's status, headers and body go instead of the socket. */
interface WriteHooks {
  /** The status and headers (lower-case names) `writeHead` is given, before they are written. */
  headers(status: number, headers: Record<string, string>): void;
  /** A piece of the body (never empty); the answer `write()` gives. */
  write(data: Buffer, callback: WriteCallback | undefined): boolean;
  /** Whether `end()` was called already (later calls do nothing). */
  ending(): boolean;
  /** The end, with a last piece of the body when it has one. */
  end(data: Buffer | undefined, callback: (() => void) | undefined): void;
}

/** Replaces an answer's `writeHead`, `write` and `end` with the hooks (the headers still go out at once). */
function interceptWrites(response: ServerResponse, hooks: WriteHooks): void {
  const originalWriteHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  response.writeHead = function writeHead(...args: unknown[]) {
    hooks.headers(Number(args[0]), headerRecord(args.slice(1)));
    return originalWriteHead(...args);
  } as typeof response.writeHead;

  response.write = function write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    const done = (typeof encoding === "function" ? encoding : callback) as WriteCallback | undefined;
    const data = toBuffer(chunk, typeof encoding === "function" ? undefined : encoding);
    if (data.length === 0) {
      if (done) process.nextTick(done);
      return true;
    }
    return hooks.write(data, done);
  } as typeof response.write;

  response.end = function end(chunk?: unknown, encoding?: unknown, callback?: unknown) {
    if (hooks.ending()) return response;
    let done: (() => void) | undefined;
    if (typeof chunk === "function") done = chunk as () => void;
    else if (typeof encoding === "function") done = encoding as () => void;
    else if (typeof callback === "function") done = callback as () => void;
    let data: Buffer | undefined;
    if (chunk !== undefined && chunk !== null && typeof chunk !== "function") {
      const bytes = toBuffer(chunk, typeof encoding === "function" ? undefined : encoding);
      if (bytes.length > 0) data = bytes;
    }
    hooks.end(data, done);
    return response;
  } as typeof response.end;
}

/**
 * Makes an answer take the model's time: nothing is sent before `firstByteAt` (plus the size term), then
 * the body goes out at `bytesPerSecond`. `write()` returns false while more than a few hundred KiB wait, and
 * `drain` follows, so piped content is read from its source no faster than it is sent.
 */
export function paceResponse(response: ServerResponse, pacing: ResponsePacing): PacedResponse {
  const originalWrite = response.write.bind(response) as (chunk: Buffer, callback?: WriteCallback) => boolean;
  const originalEnd = response.end.bind(response) as (callback?: () => void) => ServerResponse;
  const queue: { data: Buffer; offset: number; callback?: WriteCallback }[] = [];
  let queued = 0;
  let declaredLength: number | undefined;
  let ending: { callback?: () => void } | undefined;
  let ended = false;
  let timer = false; // a pump is due: it sleeps on the clock until its time
  let streamStart: number | undefined;
  let sent = 0;
  let needDrain = false;
  let waitingForSocket = false;
  let firstByteAt = pacing.firstByteAt;

  const { clock } = pacing;
  const schedule = (ms = 0): void => {
    if (timer || waitingForSocket || ended) return;
    timer = true;
    void clock.sleep(ms).then(() => !ended && pump());
  };

  const lengthForTiming = (): number => {
    if (declaredLength !== undefined) return declaredLength;
    const header = response.getHeader("content-length");
    if (header !== undefined) return Number(header) || 0;
    return ending ? queued : 0;
  };

  function pump(): void {
    timer = false;
    if (response.destroyed) {
      queue.length = 0;
      ended = true;
      return;
    }
    const now = clock.now();
    if (streamStart === undefined) {
      const at = firstByteAt + pacing.perMiBMs * (lengthForTiming() / MiB);
      if (now < at) {
        schedule(Math.ceil(at - now));
        return;
      }
      streamStart = now;
    }
    const rate = pacing.bytesPerSecond;
    let budget =
      rate === Infinity ? Infinity : BURST_BYTES + Math.floor(((now - streamStart) / 1000) * rate) - sent;
    while (queue.length > 0 && budget > 0) {
      const item = queue[0] as (typeof queue)[number];
      const size = Math.min(item.data.length - item.offset, budget, SLICE_BYTES);
      const slice = item.data.subarray(item.offset, item.offset + size);
      item.offset += size;
      queued -= size;
      sent += size;
      budget -= size;
      pacing.onBytes?.(size);
      const done = item.offset >= item.data.length;
      if (done) queue.shift();
      if (!originalWrite(slice, done ? item.callback : undefined)) {
        waitingForSocket = true;
        response.once("drain", () => {
          waitingForSocket = false;
          schedule();
        });
        break;
      }
    }
    if (needDrain && queued < HIGH_WATER_BYTES) {
      needDrain = false;
      response.emit("drain");
    }
    if (queue.length === 0 && ending && !waitingForSocket) {
      ended = true;
      originalEnd(ending.callback);
      return;
    }
    if (queue.length > 0 && !waitingForSocket) {
      const wanted = Math.min(SLICE_BYTES, queued);
      const readyAt = streamStart + ((sent + wanted - BURST_BYTES) / rate) * 1000;
      schedule(Math.max(TICK_MS, Math.ceil(readyAt - now)));
    }
  }

  interceptWrites(response, {
    headers: (status, headers) => {
      if (headers["content-length"] !== undefined) declaredLength = Number(headers["content-length"]) || 0;
      pacing.onHeaders?.(status, headers);
    },
    write: (data, callback) => {
      queue.push({ data, offset: 0, callback });
      queued += data.length;
      schedule();
      if (queued >= HIGH_WATER_BYTES) needDrain = true;
      return !needDrain;
    },
    ending: () => ending !== undefined,
    end: (data, callback) => {
      if (data) {
        queue.push({ data, offset: 0 });
        queued += data.length;
      }
      ending = { callback };
      schedule();
    },
  });

  response.once("close", () => {
    timer = false;
    queue.length = 0;
    ended = true;
  });

  return {
    delay: (ms) => {
      firstByteAt += ms;
    },
  };
}

/** Counts an answer's body bytes as they are written, without pacing (the model is off). */
export function countResponseBytes(response: ServerResponse, onBytes: (bytes: number) => void): void {
  const originalWrite = response.write.bind(response) as (...args: unknown[]) => boolean;
  const originalEnd = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  const size = (chunk: unknown, encoding: unknown): number => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return 0;
    if (typeof chunk === "string") {
      return Buffer.byteLength(chunk, (typeof encoding === "string" ? encoding : "utf8") as BufferEncoding);
    }
    return (chunk as Uint8Array).byteLength ?? 0;
  };
  response.write = function write(chunk: unknown, ...rest: unknown[]) {
    onBytes(size(chunk, rest[0]));
    return originalWrite(chunk, ...rest);
  } as typeof response.write;
  response.end = function end(chunk?: unknown, ...rest: unknown[]) {
    onBytes(size(chunk, rest[0]));
    return originalEnd(chunk, ...rest);
  } as typeof response.end;
}

/** Paces reading a request body at `bytesPerSecond` (the caller's upload bandwidth). */
export interface InboundPacing {
  /** The clock the upload's time passes on (default: the system's). */
  clock?: Clock;
  bytesPerSecond: number;
  onBytes?: (bytes: number) => void;
}

/**
 * Called for each received chunk: pauses the request while it is ahead of the bandwidth (the socket's
 * buffers then fill and the sender slows down), and counts the bytes.
 */
export function inboundPacer(
  request: NodeJS.ReadableStream & { pause(): unknown; resume(): unknown },
  pacing: InboundPacing | undefined,
): (bytes: number) => void {
  let start: number | undefined;
  let received = 0;
  return (bytes) => {
    if (!pacing) return;
    pacing.onBytes?.(bytes);
    if (pacing.bytesPerSecond === Infinity) return;
    const clock = pacing.clock ?? SYSTEM_CLOCK;
    const now = clock.now();
    start ??= now;
    received += bytes;
    const due = start + ((received - BURST_BYTES) / pacing.bytesPerSecond) * 1000;
    if (due > now + TICK_MS) {
      request.pause();
      void clock.sleep(Math.ceil(due - now)).then(() => request.resume());
    }
  };
}
