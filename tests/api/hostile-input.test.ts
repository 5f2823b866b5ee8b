/**
 * Hostile input on every route: a property-based fuzz run (fast-check) over the API's own route table
 * (routeTable of the app the functions serve), sent to the `api` function itself in the Functions emulator
 * (the local Hosting emulator's static-file step answers 500 to a path that is not valid percent-encoding
 * before any rewrite, which production Hosting does not), signed in as the admin of a real organisation so
 * requests get past authentication to the code that reads them.
 * Path ids, query strings and bodies are drawn from values that have broken APIs before: encoded slashes,
 * dot segments, prototype keys, lone surrogates, 2,000-character ids, 5,000-deep nesting, wrong JSON
 * types for every field the API knows, forms and text instead of JSON.
 *
 * Every answer must come within a few seconds, be below 500, and (as an error) be `{code, message}` with
 * the status as code. Two answers are not ours: a JSON body that does not parse, and a path that is not
 * valid percent-encoding, are refused (400) by the Cloud Functions runtime before the function runs, with
 * the runtime's own text (see docs/api.md).
 *
 * Replay a failure with the seed and path fast-check prints: FUZZ_SEED=<seed> FUZZ_PATH=<path>.
 */
import { Agent, request as httpRequest } from "node:http";
import * as fc from "fast-check";
import { createApi } from "../../functions/src/http/app";
import { routeTable, type RouteEntry } from "../../functions/src/http/route-table";
import { APP_CHECK_HEADER } from "@alpvault/contracts/app-check";
import { BACKUP_MESSAGES } from "@alpvault/contracts/backups";
import { BILLING_MESSAGES } from "@alpvault/contracts/billing";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { RECOVERY_MESSAGES } from "@alpvault/contracts/recovery";
import { regionLocation } from "@alpvault/contracts/regions";
import { SECRET_MESSAGES } from "@alpvault/contracts/secrets";
import { BODY_MESSAGES } from "../../functions/src/http/body";
import { appCheckToken } from "../support/api-client";
import { signInWithGoogle } from "../support/auth-emulator";
import { googleSubOf, onboarded } from "../support/organizations";
import { validBodies } from "../support/requests";
import { stackEnv } from "../support/stack-env";

jest.setTimeout(600_000);

const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 30);
/**
 * A hang, not a speed target: any answer slower than this is a failure. The Functions emulator starts a
 * new worker process (our whole function code loaded again) for a request that finds every worker busy;
 * with the browser suites beside this file on two cores, one such answer took more than 10 s.
 */
const ANSWER_WITHIN_MS = 30_000;

const ROUTES = routeTable(
  createApi({
    identity: { verifyIdToken: () => Promise.reject(new Error("only the table is read")) },
    appCheck: { verifyAppCheckToken: () => Promise.reject(new Error("only the table is read")) },
  }),
);

/** Every field name a request body of the API has, so that wrong types reach the code that reads them. */
const FIELD_NAMES = [
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
] as const;

const QUERY_KEYS = [
  "page",
  "pageSize",
  "service",
  "resource",
  "keyword",
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

interface Known {
  organizationId: string;
  subscriptionId: string;
  resourceId: string;
  otherResourceId: string;
}

/** Percent-encodes the UTF-8 bytes of any string (a lone surrogate becomes U+FFFD, as in a browser). */
function encodeSegment(text: string): string {
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
const hostileText = fc.oneof(
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
const rawSegments = fc.constantFrom(
  "%ED%A0%80",
  "%E0%A4%A",
  "%",
  "%2",
  "%C0%AF",
  "%00",
  "a%2Fb%2Fc",
  "%2E%2E",
);

function pathSegment(name: string, known: Known): fc.Arbitrary<string> {
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
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileText,
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, Number.MAX_SAFE_INTEGER + 2),
  fc.integer(),
  fc.array(hostileText, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...FIELD_NAMES, "x"), hostileText, { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

interface Body {
  text: string;
  contentType: string;
}

const json = (value: unknown): Body => ({ text: JSON.stringify(value), contentType: "application/json" });
const jsonText = (text: string): Body => ({ text, contentType: "application/json" });

function body(route: RouteEntry, known: Known): fc.Arbitrary<Body | undefined> {
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

const query = fc
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

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

const KEEP_ALIVE = new Agent({ keepAlive: true, maxSockets: 4 });

/**
 * The API functions as Hosting's `/v1/**` rewrites reach them: the global `api` and Switzerland's `ch-api`
 * (the organisation fuzzed is Swiss; the other regions' APIs are the same code with another region).
 */
const API_FUNCTIONS = {
  global: () => `${stackEnv.functionsUrl}/${stackEnv.projectId}/europe-west6/api`,
  ch: () => `${stackEnv.functionsUrl}/${stackEnv.projectId}/${regionLocation("ch")}/ch-api`,
} as const;

type Instance = keyof typeof API_FUNCTIONS;

/** A path the runtime's router cannot decode (its route parameter is decoded before the function runs). */
function runtimeRefusesPath(url: string): boolean {
  try {
    decodeURIComponent(url.split("?")[0] ?? "");
    return false;
  } catch {
    return true;
  }
}

/** A JSON body that the runtime's parser refuses (not JSON, or JSON but neither an object nor an array). */
function runtimeRefusesJson(sent: Body | undefined): boolean {
  if (!sent || !sent.contentType.startsWith("application/json")) return false;
  try {
    const value: unknown = JSON.parse(sent.text);
    return typeof value !== "object" || value === null;
  } catch {
    return true;
  }
}

function checkAnswer(route: RouteEntry, url: string, sent: Body | undefined, answer: Answer): void {
  const where = `${route.method} ${url} (${sent ? `${sent.contentType}: ${sent.text.slice(0, 200)}` : "no body"})`;
  if (answer.status >= 500)
    throw new Error(`${where} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  if (answer.status < 400) return;
  if (runtimeRefusesJson(sent) || runtimeRefusesPath(url)) {
    if (answer.status !== 400) throw new Error(`${where} answered ${answer.status}, not 400`);
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    throw new Error(`${where} answered ${answer.status} without a JSON body: ${answer.text.slice(0, 300)}`);
  }
  const error = parsed as { code?: unknown; message?: unknown };
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    Object.keys(parsed).sort().join() !== "code,message" ||
    error.code !== answer.status ||
    typeof error.message !== "string" ||
    error.message.length === 0
  ) {
    throw new Error(`${where} answered ${answer.status} with ${answer.text.slice(0, 300)}`);
  }
}

/**
 * Sends the request exactly as written: node:http, not fetch, whose URL parser would resolve `.`, `..`,
 * `%2E%2E` segments before sending and so never let them reach the API.
 */
function send(
  instance: Instance,
  route: RouteEntry,
  url: string,
  sent: Body | undefined,
  idToken: string,
): Promise<Answer> {
  const target = new URL(API_FUNCTIONS[instance]());
  const body = sent ? Buffer.from(sent.text, "utf8") : undefined;
  const headers: Record<string, string | number> = {
    authorization: `Bearer ${idToken}`,
    [APP_CHECK_HEADER]: appCheckToken(),
  };
  if (sent && body) {
    headers["content-type"] = sent.contentType;
    headers["content-length"] = body.length;
  }
  return new Promise<Answer>((resolvePromise, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: route.method,
        path: `${target.pathname}${url}`,
        headers,
        agent: KEEP_ALIVE,
        timeout: ANSWER_WITHIN_MS,
      },
      (response) => {
        const parts: Buffer[] = [];
        response.on("data", (part: Buffer) => parts.push(part));
        response.on("error", reject);
        response.on("end", () =>
          resolvePromise({
            status: response.statusCode ?? 0,
            contentType: String(response.headers["content-type"] ?? ""),
            text: Buffer.concat(parts).toString("utf8"),
          }),
        );
      },
    );
    request.on("timeout", () =>
      request.destroy(new Error(`${route.method} ${url} gave no answer within ${ANSWER_WITHIN_MS} ms`)),
    );
    request.on("error", reject);
    request.end(body);
  });
}

let known: Known;
let idToken: string;

beforeAll(async () => {
  const setup = await onboarded();
  const admin = await signInWithGoogle({
    sub: await googleSubOf(setup.workspace.admin),
    email: setup.workspace.admin,
  });
  idToken = admin.idToken;
  known = {
    organizationId: setup.organization.organizationId,
    subscriptionId: setup.organization.subscriptions[0]!.subscriptionId,
    resourceId: `user-${await googleSubOf(setup.workspace.admin)}`,
    otherResourceId: `user-${await googleSubOf(setup.workspace.user)}`,
  };
});

/** The requests an earlier fuzz run found answered with 500 (some after 10 s), asked again one by one. */
describe("the inputs that once broke the API", () => {
  const org = () => `/v1/organizations/${known.organizationId}`;
  /** A valid recovery request with `extra` members after its own (raw JSON: the last of two equal keys wins). */
  const recovery = (extra: string): Body =>
    jsonText(
      `{"resourceId":"${known.resourceId}","service":"gmail","location":"original","method":"folder",` +
        `"folderName":"R",${extra}}`,
    );
  interface Case {
    method: string;
    url: () => string;
    body?: () => Body;
    status: number;
    message: string;
  }
  const cases: Record<string, Case> = {
    "an encoded slash as the organisation id": {
      method: "GET",
      url: () => "/v1/organizations/a%2Fb",
      status: 404,
      message: ORGANIZATION_MESSAGES.organizationNotFound,
    },
    "three segments as the organisation id": {
      method: "GET",
      url: () => "/v1/organizations/a%2Fb%2Fc/secrets",
      status: 404,
      message: ORGANIZATION_MESSAGES.organizationNotFound,
    },
    "an encoded slash as a secret id": {
      method: "DELETE",
      url: () => `${org()}/secrets/a%2Fb`,
      status: 404,
      message: SECRET_MESSAGES.secretNotFound,
    },
    "an encoded slash as a checkout id": {
      method: "GET",
      url: () => `${org()}/payments/a%2Fb`,
      status: 404,
      message: BILLING_MESSAGES.paymentNotFound,
    },
    "an encoded slash as a resource id": {
      method: "POST",
      url: () => `${org()}/resources/a%2Fb/backups`,
      status: 404,
      message: BACKUP_MESSAGES.resourceNotFound,
    },
    "an encoded slash on the payment page": {
      method: "GET",
      url: () => "/v1/payments/sandbox/a%2Fb",
      status: 404,
      message: BILLING_MESSAGES.paymentNotFound,
    },
    "a slash in a recovery's resource id": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"resourceId":"a/b"'),
      status: 400,
      message: RECOVERY_MESSAGES.resourceNotFound,
    },
    "an object as a recovery's folder name": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"folderName":{}'),
      status: 400,
      message: "folderName must be text.",
    },
    "a list as a recovery's date": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"date":["01-01-2026"]'),
      status: 400,
      message: "date must be text.",
    },
    "a slash in an estimated recovery's resource id": {
      method: "POST",
      url: () => `${org()}/recoveries/estimate`,
      body: () => recovery('"resourceId":"a/b"'),
      status: 400,
      message: RECOVERY_MESSAGES.resourceNotFound,
    },
    "an object as an estimated recovery's folder name": {
      method: "POST",
      url: () => `${org()}/recoveries/estimate`,
      body: () => recovery('"folderName":{}'),
      status: 400,
      message: "folderName must be text.",
    },
    "a number as a recovery's resource id": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"resourceId":5'),
      status: 400,
      message: "resourceId must be text.",
    },
    "a __proto__ key": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"__proto__":{"x":1}'),
      status: 400,
      message: BODY_MESSAGES.forbiddenKey,
    },
    "a constructor key": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"constructor":{"x":1}'),
      status: 400,
      message: BODY_MESSAGES.forbiddenKey,
    },
    "5,000-deep nesting": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery(`"x":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`),
      status: 400,
      message: BODY_MESSAGES.tooDeep,
    },
    "a lone surrogate in a policy name": {
      method: "PATCH",
      url: () => `${org()}/policies/default`,
      body: () => jsonText('{"name":"Gold \\ud800"}'),
      status: 400,
      message: BODY_MESSAGES.notUnicode,
    },
    "a lone surrogate in a resource id": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"resourceId":"\\udfff"'),
      status: 400,
      message: BODY_MESSAGES.notUnicode,
    },
    "an 11 MB body": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery(`"x":"${"x".repeat(11_000_000)}"`),
      status: 413,
      message: BODY_MESSAGES.tooLarge,
    },
    "a form instead of JSON": {
      method: "POST",
      url: () => `${org()}/policies`,
      body: () => ({ text: "name=x", contentType: "application/x-www-form-urlencoded" }),
      status: 415,
      message: BODY_MESSAGES.notJson,
    },
  };

  test.each(Object.entries(cases))(
    "when a request has %s, then a timely {code, message} refusal",
    async (_case, c) => {
      const url = c.url();
      const sent = c.body?.();
      const route: RouteEntry = { method: c.method, path: url, public: false, params: [] };
      const answer = await send("ch", route, url, sent, idToken);
      checkAnswer(route, url, sent, answer);
      expect({ status: answer.status, body: JSON.parse(answer.text) as unknown }).toEqual({
        status: c.status,
        body: { code: c.status, message: c.message },
      });
    },
  );
});

test("when the route table is read, then it has the product's routes to fuzz", () => {
  expect(ROUTES.length).toBeGreaterThanOrEqual(30);
});

const CASES = ROUTES.flatMap((route) =>
  (Object.keys(API_FUNCTIONS) as Instance[]).map(
    (instance) => [`${route.method} ${route.path} on the ${instance} API`, route, instance] as const,
  ),
);

describe.each(CASES)("%s with hostile input", (_name, route, instance) => {
  test("when paths, queries and bodies are hostile, then every answer is a timely 4xx or success with {code, message} errors", async () => {
    const segments = route.path.split("/").map((segment) => {
      const param = /^:([A-Za-z0-9_]+)(.*)$/.exec(segment);
      if (!param) return fc.constant(segment.replace(/\\:/g, ":"));
      const suffix = (param[2] ?? "").replace(/\\:/g, ":");
      return pathSegment(param[1]!, known).map((value) => `${value}${suffix}`);
    });
    const hasBody = ["POST", "PUT", "PATCH", "DELETE"].includes(route.method);
    const request = fc.record({
      path: fc.tuple(...segments).map((parts) => parts.join("/")),
      query,
      body: hasBody ? body(route, known) : fc.constant(undefined),
    });
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async ({ path, query: search, body: sent }) => {
        const url = `${path}${search}`;
        const answer = await send(instance, route, url, sent, idToken);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        checkAnswer(route, url, sent, answer);
      }),
      {
        numRuns: RUNS_PER_ROUTE,
        ...(process.env.FUZZ_SEED
          ? { seed: Number(process.env.FUZZ_SEED), path: process.env.FUZZ_PATH }
          : {}),
      },
    );
    // FUZZ_STATS=1 shows how far the requests got (statuses per route), to judge the generators.
    if (process.env.FUZZ_STATS) console.log(`${_name} ${JSON.stringify([...statuses])}`);
  });
});

afterAll(() => KEEP_ALIVE.destroy());
