/**
 * Hostile input for every route of the API (tests/api/hostile-input.test.ts in the test's own process,
 * tests/e2e/runtime-input.test.ts through the Functions runtime): property-based requests (fast-check) over
 * the API's own route table, drawn from values that have broken APIs before (encoded slashes, dot
 * segments, prototype keys, lone surrogates, 2,000-character ids, 5,000-deep nesting, wrong JSON types for
 * every field the API knows, forms and text instead of JSON), the requests that once broke it, and the
 * check of each answer.
 */
import * as fc from "fast-check";
import { composeApi } from "../../functions/src/api";
import { routeTable, type RouteEntry } from "../../functions/src/http/route-table";
import { validBodies } from "./requests";

/** Requests per route (FUZZ_RUNS overrides it). */
export const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 30);
export const ROUTES = routeTable(
  composeApi(null, {
    identity: { verifyIdToken: () => Promise.reject(new Error("only the table is read")) },
    appCheck: { verifyAppCheckToken: () => Promise.reject(new Error("only the table is read")) },
  }),
);

/** Every field name a request body of the API has, so that wrong types reach the code that reads them. */
export const FIELD_NAMES = [
  "resourceId",
  "targetResourceId",
  "service",
  "itemIds",
  "location",
  "method",
  "folderName",
  "permissions",
  "date",
  "name",
  "dataTypes",
  "frequency",
  "schedule",
  "days",
  "retentionDays",
  "archiving",
  "isDefault",
  "resourceIds",
  "description",
  "kmsResourceName",
  "purchase",
  "kind",
  "planId",
  "seats",
  "packs",
  "returnUrl",
  "enabled",
  "regionId",
  "outcome",
  // The terms of a search or a browse.
  "resource",
  "keyword",
  "page",
  "pageSize",
  "pageToken",
  "label",
  "folder",
  "calendar",
  "day",
  "span",
  "group",
] as const;

export const QUERY_KEYS = [
  "page",
  "pageSize",
  "service",
  "date",
  "start",
  "end",
  "type",
  "protection",
  "policyId",
  "search",
  "sort",
  "direction",
  "fields",
] as const;

export interface Known {
  organizationId: string;
  subscriptionId: string;
  resourceId: string;
  otherResourceId: string;
}

/** Percent-encodes the UTF-8 bytes of any string (a lone surrogate becomes U+FFFD, as in a browser). */
export function encodeSegment(text: string): string {
  if (text === "." || text === "..") return text;
  return [...Buffer.from(text, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9_~.-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}

/** Strings that have broken APIs, as they would be typed. */
export const hostileText = fc.oneof(
  fc.constantFrom(
    "a/b",
    "a/b/c",
    "..",
    ".",
    "__proto__",
    "constructor",
    "__name__",
    "x".repeat(2000),
    "\ud800",
    "x\udc00y",
    "\u0000",
    "😀",
    "é",
    " default ",
    "default",
    "-1",
    "1e309",
    "NaN",
    "{}",
    "[]",
    "null",
    "%",
    "<script>",
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
);

/** Already-encoded path segments that no encoder would produce: broken or over-long escapes. */
export const rawSegments = fc.constantFrom(
  "%ED%A0%80",
  "%E0%A4%A",
  "%",
  "%2",
  "%C0%AF",
  "%00",
  "a%2Fb%2Fc",
  "%2E%2E",
);

export function pathSegment(name: string, known: Known): fc.Arbitrary<string> {
  const real: Partial<Record<string, string>> = {
    organizationId: known.organizationId,
    subscriptionId: known.subscriptionId,
    resourceId: known.resourceId,
    policyId: "default",
    secretId: "default",
  };
  const choices: fc.Arbitrary<string>[] = [hostileText.map(encodeSegment), rawSegments];
  const mine = real[name];
  // The organisation's own id half of the time: otherwise almost everything stops at "not found".
  if (mine !== undefined) choices.push(fc.constant(mine), fc.constant(mine));
  return fc.oneof(...choices);
}

/** JSON values of every type, hostile strings among them. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER + 2),
  fc.integer(),
  fc.array(hostileText, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...FIELD_NAMES, "x"), hostileText, { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

export interface Body {
  text: string;
  contentType: string;
}

export const json = (value: unknown): Body => ({
  text: JSON.stringify(value),
  contentType: "application/json",
});
export const jsonText = (text: string): Body => ({ text, contentType: "application/json" });

export function body(route: RouteEntry, known: Known): fc.Arbitrary<Body | undefined> {
  const valid = validBodies([known.resourceId, known.otherResourceId])[`${route.method} ${route.path}`];
  const choices: fc.Arbitrary<Body | undefined>[] = [
    fc.constant(undefined),
    fc.dictionary(fc.constantFrom(...FIELD_NAMES), hostileValue, { maxKeys: 6 }).map(json),
    fc.jsonValue({ maxDepth: 4 }).map(json),
    fc.constantFrom<Body>(
      { text: `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`, contentType: "application/json" },
      { text: `${"[".repeat(5000)}${"]".repeat(5000)}`, contentType: "application/json" },
      { text: '{"__proto__": {"isAdmin": true}, "name": "x"}', contentType: "application/json" },
      { text: '{"constructor": {"prototype": {"x": 1}}}', contentType: "application/json" },
      { text: '{"name": "\\ud800", "resourceId": "\\udfff"}', contentType: "application/json" },
      { text: "resourceId=a&service=gmail&x[y][z]=1", contentType: "application/x-www-form-urlencoded" },
      { text: "resourceId=a", contentType: "text/plain" },
      { text: "\u0000\u0001\u0002", contentType: "application/octet-stream" },
      { text: "{not json", contentType: "application/json" },
      { text: '"just a string"', contentType: "application/json" },
    ),
  ];
  if (valid) {
    const mutated = fc
      .record({
        field: fc.constantFrom(...Object.keys(valid), ...FIELD_NAMES),
        value: hostileValue,
        drop: fc.boolean(),
      })
      .map(({ field, value, drop }) => {
        const copy: Record<string, unknown> = { ...valid };
        if (drop) delete copy[field];
        else copy[field] = value;
        return json(copy);
      });
    choices.push(mutated, mutated, fc.constant(json(valid)));
  }
  return fc.oneof(...choices);
}

export const query = fc
  .array(
    fc.tuple(
      fc.constantFrom(...QUERY_KEYS, "x"),
      fc.oneof(hostileText, fc.constantFrom("1", "25", "gmail", "drive")),
    ),
    { maxLength: 5 },
  )
  .map((pairs) =>
    pairs.length === 0 ? "" : `?${pairs.map(([key, value]) => `${key}=${encodeSegment(value)}`).join("&")}`,
  );

/** One route's hostile requests: its path with each parameter drawn, a query, and a body where it takes one. */
export function hostileRequests(route: RouteEntry, known: Known) {
  const segments = route.path.split("/").map((segment) => {
    const param = /^:([A-Za-z0-9_]+)(.*)$/.exec(segment);
    if (!param) return fc.constant(segment.replace(/\\:/g, ":"));
    const suffix = (param[2] ?? "").replace(/\\:/g, ":");
    return pathSegment(param[1]!, known).map((value) => `${value}${suffix}`);
  });
  const hasBody = ["POST", "PUT", "PATCH", "DELETE"].includes(route.method);
  return fc.record({
    path: fc.tuple(...segments).map((parts) => parts.join("/")),
    query,
    body: hasBody ? body(route, known) : fc.constant(undefined),
  });
}

/** fast-check's settings of a fuzz run: FUZZ_SEED and FUZZ_PATH replay a failure it printed. */
export function fuzzSettings(numRuns: number) {
  return {
    numRuns,
    ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED), path: process.env.FUZZ_PATH } : {}),
  };
}
