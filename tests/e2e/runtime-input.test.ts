/**
 * Hostile input through the Cloud Functions runtime (the Functions emulator's `api` and `ch-api`, as
 * Hosting's `/v1/**` rewrites reach them; the local Hosting emulator's static-file step answers 500 to a
 * path that is not valid percent-encoding before any rewrite, which production Hosting does not): the
 * requests that once broke the API, a body that does not parse and a path that does not decode (refused by
 * the runtime with a 400 of its own before our code runs, see docs/api.md), the 1 MiB body limit behind the
 * runtime's own, and a short fuzz run over every route to show the runtime adds no other answer. The full
 * fuzz run is tests/api/hostile-input.test.ts, in the test's own process.
 */
import { Agent } from "node:http";
import * as fc from "fast-check";
import { regionLocation } from "@alpvault/contracts/regions";
import type { RouteEntry } from "../../functions/src/http/route-table";
import { checkAnswer, hostileInputSetup, pastBreaks, send } from "../support/hostile-answers";
import { ROUTES, fuzzSettings, hostileRequests, type Body, type Known } from "../support/hostile-input";
import { stackEnv } from "../support/stack-env";

jest.setTimeout(300_000);

/** Requests per route through the runtime (the full run is in the test's own process). */
const RUNTIME_RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNTIME_RUNS ?? 3);
const KEEP_ALIVE = new Agent({ keepAlive: true, maxSockets: 4 });
const API_FUNCTIONS = {
  global: () => `${stackEnv.functionsUrl}/${stackEnv.projectId}/europe-west6/api`,
  ch: () => `${stackEnv.functionsUrl}/${stackEnv.projectId}/${regionLocation("ch")}/ch-api`,
} as const;

let known: Known;
let idToken: string;

beforeAll(async () => {
  ({ known, idToken } = await hostileInputSetup());
});

afterAll(() => KEEP_ALIVE.destroy());

const ask = (instance: keyof typeof API_FUNCTIONS, route: RouteEntry, url: string, sent: Body | undefined) =>
  send(KEEP_ALIVE, API_FUNCTIONS[instance](), route, url, sent, idToken);

describe("the inputs that once broke the API, through the runtime", () => {
  test.each(Object.keys(pastBreaks({} as Known)))(
    "when a request has %s, then a timely {code, message} refusal",
    async (name) => {
      const c = pastBreaks(known)[name]!;
      const url = c.url();
      const sent = c.body?.();
      const route: RouteEntry = { method: c.method, path: url, public: false, params: [] };
      const answer = await ask("ch", route, url, sent);
      checkAnswer(route, url, sent, answer, true);
      expect({ status: answer.status, body: JSON.parse(answer.text) as unknown }).toEqual({
        status: c.status,
        body: { code: c.status, message: c.message },
      });
    },
  );
});

describe("what the runtime refuses before our code runs", () => {
  test("when a JSON body does not parse, then the runtime answers 400", async () => {
    const url = `/v1/organizations/${known.organizationId}/policies`;
    const route: RouteEntry = { method: "POST", path: url, public: false, params: [] };
    const answer = await ask("ch", route, url, { text: "{not json", contentType: "application/json" });
    expect(answer.status).toBe(400);
  });

  test("when a path is not valid percent-encoding, then the runtime answers 400", async () => {
    const url = "/v1/organizations/%E0%A4%A/resources";
    const route: RouteEntry = { method: "GET", path: url, public: false, params: [] };
    const answer = await ask("ch", route, url, undefined);
    expect(answer.status).toBe(400);
  });
});

describe.each(ROUTES.map((route) => [`${route.method} ${route.path}`, route] as const))(
  "%s through the runtime",
  (_name, route) => {
    test("when paths, queries and bodies are hostile, then every answer is a timely 4xx or success, errors {code, message} or the runtime's own", async () => {
      await fc.assert(
        fc.asyncProperty(hostileRequests(route, known), async ({ path, query, body }) => {
          const url = `${path}${query}`;
          checkAnswer(route, url, body, await ask("ch", route, url, body), true);
        }),
        fuzzSettings(RUNTIME_RUNS_PER_ROUTE),
      );
    });
  },
);
