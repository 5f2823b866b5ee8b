/**
 * Hostile input on every route, in the test's own process: a property-based fuzz run (fast-check) over the
 * API's own route table (support/hostile-input.ts), sent to the global API and Switzerland's as deployed
 * (`productApi`), signed in as the admin of a real organisation so requests get past authentication to the
 * code that reads them. Every answer must come within a hang bound, be below 500, and (as an error) be
 * `{code, message}` with the status as code: without the Cloud Functions runtime in front, even a body
 * that does not parse and a path that does not decode are ours to refuse that way.
 * (tests/e2e/runtime-input.test.ts sends the same through the runtime.)
 *
 * Replay a failure with the seed and path fast-check prints: FUZZ_SEED=<seed> FUZZ_PATH=<path>.
 */
import { Agent } from "node:http";
import * as fc from "fast-check";
import type { RouteEntry } from "../../functions/src/http/route-table";
import { checkAnswer, hostileInputSetup, pastBreaks, send, type Answer } from "../support/hostile-answers";
import { ROUTES, RUNS_PER_ROUTE, fuzzSettings, hostileRequests, type Known } from "../support/hostile-input";
import { apiOrigin } from "../support/regions";

jest.setTimeout(300_000);

const KEEP_ALIVE = new Agent({ keepAlive: true, maxSockets: 4 });
const INSTANCES = ["global", "ch"] as const;

let known: Known;
let idToken: string;

beforeAll(async () => {
  ({ known, idToken } = await hostileInputSetup());
});

afterAll(() => KEEP_ALIVE.destroy());

const ask = (instance: "global" | "ch", route: RouteEntry, url: string, sent: Parameters<typeof send>[4]) =>
  send(KEEP_ALIVE, apiOrigin(instance), route, url, sent, idToken);

describe("the inputs that once broke the API", () => {
  test.each(Object.keys(pastBreaks({} as Known)))(
    "when a request has %s, then a timely {code, message} refusal",
    async (name) => {
      const c = pastBreaks(known)[name]!;
      const url = c.url();
      const sent = c.body?.();
      const route: RouteEntry = { method: c.method, path: url, public: false, params: [] };
      const answer: Answer = await ask("ch", route, url, sent);
      checkAnswer(route, url, sent, answer, false);
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
  INSTANCES.map(
    (instance) => [`${route.method} ${route.path} on the ${instance} API`, route, instance] as const,
  ),
);

describe.each(CASES)("%s with hostile input", (name, route, instance) => {
  test("when paths, queries and bodies are hostile, then every answer is a timely 4xx or success with {code, message} errors", async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(hostileRequests(route, known), async ({ path, query, body }) => {
        const url = `${path}${query}`;
        const answer = await ask(instance, route, url, body);
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        checkAnswer(route, url, body, answer, false);
      }),
      fuzzSettings(RUNS_PER_ROUTE),
    );
    // FUZZ_STATS=1 shows how far the requests got (statuses per route), to judge the generators.
    if (process.env.FUZZ_STATS) console.log(`${name} ${JSON.stringify([...statuses])}`);
  });
});
