/**
 * The product's files a piece of work passes on its way to everything it stores or asks for: while a trace
 * runs, every call that leaves the process — a Firestore request, an HTTP request (Google's APIs, Cloud
 * Storage), a task enqueued — records the product files on its whole causal call path, across `await`s,
 * pools and callbacks (each asynchronous resource remembers the stack that created it, `node:async_hooks`,
 * and a path is the chain of those stacks back to where the trace began).
 *
 * This is the path a reader follows from the entry point to each effect. A helper that is called and
 * returns before the effect (a parser, a codec) is not on it; the function that calls it is.
 */
import { createHook, executionAsyncId } from "node:async_hooks";
import http from "node:http";
import https from "node:https";
import { relative, resolve } from "node:path";
import { Firestore } from "@google-cloud/firestore";
// The Cloud Storage client as the product loads it: functions/ has its own copy.
import { File } from "../../functions/node_modules/@google-cloud/storage";
import { useTaskTransport, type TaskTransport } from "../../functions/src/lib/task-queue";

const PRODUCT_ROOT = resolve(__dirname, "..", "..", "functions", "src");
const FRAME_FILE = /\(?((?:\/[^:()\s]+)+\.ts):\d+:\d+\)?$/;
/** Frames kept per stack: deeper than any call path of ours. */
const STACK_DEPTH = 200;

/** One call that left the process, and the product files on its path (relative to functions/src). */
export interface Effect {
  /** `firestore <method>`, `http <METHOD> <url>`, `storage save <object>`, `task <queue>`. */
  kind: string;
  files: string[];
}

export interface CallPaths {
  effects(): Effect[];
  stop(): void;
}

function productFiles(stack: string | undefined): string[] {
  const files: string[] = [];
  for (const line of (stack ?? "").split("\n")) {
    const file = FRAME_FILE.exec(line.trim())?.[1];
    if (file?.startsWith(`${PRODUCT_ROOT}/`) && !file.endsWith(".test.ts")) {
      files.push(relative(PRODUCT_ROOT, file));
    }
  }
  return files;
}

function requestLine(args: unknown[]): string {
  const [first, second] = args;
  const options = (typeof first === "object" && !(first instanceof URL) ? first : second) as
    http.RequestOptions | undefined;
  const url =
    typeof first === "string" || first instanceof URL ? String(first) : `${options?.host}${options?.path}`;
  return `${options?.method ?? "GET"} ${url}`;
}

function fetchLine(args: unknown[]): string {
  const [input, init] = args as [string | URL | Request, RequestInit | undefined];
  const url = input instanceof Request ? input.url : String(input);
  return `${init?.method ?? (input instanceof Request ? input.method : "GET")} ${url}`;
}

type Patched = { target: object; key: string; original: unknown };

/** Starts tracing; `transport` is the task transport in place, which the trace wraps. */
export function traceCallPaths(transport: TaskTransport): CallPaths {
  const previousDepth = Error.stackTraceLimit;
  Error.stackTraceLimit = STACK_DEPTH;
  const creators = new Map<number, { stack: Error; parent: number }>();
  const hook = createHook({
    init(asyncId) {
      creators.set(asyncId, { stack: new Error(), parent: executionAsyncId() });
    },
  });
  const effects: Effect[] = [];
  const record = (kind: string) => {
    const stacks = [new Error().stack];
    const seen = new Set<number>();
    for (let at = executionAsyncId(); creators.has(at) && !seen.has(at);) {
      seen.add(at);
      const creator = creators.get(at)!;
      stacks.push(creator.stack.stack);
      at = creator.parent;
    }
    effects.push({ kind, files: [...new Set(stacks.flatMap(productFiles))] });
  };
  const patched: Patched[] = [];
  const wrap = <T extends object>(
    target: T,
    key: string,
    kind: (self: unknown, args: unknown[]) => string,
  ) => {
    const original = (target as Record<string, unknown>)[key] as (...args: unknown[]) => unknown;
    patched.push({ target, key, original });
    (target as Record<string, unknown>)[key] = function (this: unknown, ...args: unknown[]) {
      record(kind(this, args));
      return original.apply(this, args);
    };
  };
  wrap(Firestore.prototype, "request", (_self, args) => `firestore ${String(args[0])}`);
  wrap(Firestore.prototype, "requestStream", (_self, args) => `firestore ${String(args[0])}`);
  for (const module of [http, https]) {
    wrap(module, "request", (_self, args) => `http ${requestLine(args)}`);
    wrap(module, "get", (_self, args) => `http ${requestLine(args)}`);
  }
  wrap(globalThis, "fetch", (_self, args) => `http ${fetchLine(args)}`);
  wrap(File.prototype, "save", (self) => `storage save ${(self as { name: string }).name}`);
  useTaskTransport((...args) => {
    record(`task ${args[1]}`);
    return transport(...args);
  });
  hook.enable();
  return {
    effects: () => effects,
    stop() {
      hook.disable();
      for (const { target, key, original } of patched.reverse()) {
        (target as Record<string, unknown>)[key] = original;
      }
      useTaskTransport(transport);
      Error.stackTraceLimit = previousDepth;
    },
  };
}
