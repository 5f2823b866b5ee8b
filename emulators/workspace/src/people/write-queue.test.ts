/**
 * One user's People writes one at a time (write-queue.ts), through the official client, on the emulator's
 * clock (`ManualClock`), with the latency model on and every People method's answer taking exactly 100 ms.
 */
import { ManualClock } from "../../../kit/src/index";
import { TEST_ADMIN, TEST_USER, startHarness, type Harness } from "../testing/harness";
import { grantPeopleScopes, peopleClient } from "./testing";

const ANSWER_MS = 100;
let harness: Harness;
const clock = new ManualClock();

beforeAll(async () => {
  harness = await startHarness({ clock });
  await grantPeopleScopes(harness);
  const fixed = { medianMs: ANSWER_MS, sigma: 0, perMiBMs: 0 };
  const answer = await harness.admin("PATCH", "/latency", {
    methods: { "people.*": fixed, "oauth2.token": { ...fixed, medianMs: 0 } },
  });
  expect(answer.status).toBe(200);
  // The tokens, before anything is timed.
  for (const user of [TEST_USER, TEST_ADMIN]) {
    await clock.run(peopleClient(harness, user).contactGroups.list({}));
  }
});
afterAll(() => harness.stop());

/** When each call answered, in ms after they were all sent together. */
async function answeredAt(calls: (() => Promise<unknown>)[]): Promise<number[]> {
  const started = clock.now();
  const times: number[] = [];
  await clock.run(Promise.all(calls.map((call) => call().then(() => times.push(clock.now() - started)))));
  return times.sort((a, b) => a - b);
}

const create = (user: string, name: string) => () =>
  peopleClient(harness, user).people.createContact({ requestBody: { names: [{ givenName: name }] } });

test("when three writes of one user are sent at once, then they answer one after another, each in its own answer time", async () => {
  const times = await answeredAt([create(TEST_USER, "A"), create(TEST_USER, "B"), create(TEST_USER, "C")]);
  expect(times.map((time) => Math.round(time / ANSWER_MS))).toEqual([1, 2, 3]);
});

test("when two users write at once, or one user reads while writing, then nothing waits", async () => {
  expect(
    (await answeredAt([create(TEST_USER, "D"), create(TEST_ADMIN, "E")])).map((time) =>
      Math.round(time / ANSWER_MS),
    ),
  ).toEqual([1, 1]);
  const read = () =>
    peopleClient(harness, TEST_USER).people.connections.list({
      resourceName: "people/me",
      personFields: "names",
    });
  expect(
    (await answeredAt([create(TEST_USER, "F"), read, read])).map((time) => Math.round(time / ANSWER_MS)),
  ).toEqual([1, 1, 1]);
});
