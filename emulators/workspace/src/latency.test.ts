/**
 * The latency model: its distributions (seeded, checked statistically with generous bounds), answers that
 * take its time through the official clients, bodies streamed at its bandwidth both ways, and its switch.
 * These tests keep the model on: timing is what they check, on the emulator's clock, which the test moves
 * (`ManualClock`): a call takes the model's time however fast or busy the machine is.
 */
import { randomBytes } from "node:crypto";
import { request } from "node:http";
import { Readable } from "node:stream";
import { ManualClock } from "../../kit/src/index";
import { SCOPES } from "./auth";
import { LATENCY_MODEL, LatencyModel } from "./latency";
import { startWorkspaceEmulator } from "./server";
import { TEST_USER, startHarness, type Harness } from "./testing/harness";
import { testMessage } from "./gmail/testing-messages";

const MiB = 1024 * 1024;

/** A message with an attachment of `bytes` random bytes. */
function messageOf(subject: string, bytes: number): Buffer {
  return testMessage({
    subject,
    attachments: [
      { filename: "plan.bin", contentType: "application/octet-stream", data: randomBytes(bytes) },
    ],
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] as number;
}

describe("the model", () => {
  test("when many calls are drawn, then the median is the method's and the tail follows its spread", () => {
    const model = new LatencyModel();
    const { medianMs, sigma } = model.parameters("gmail.users.messages.get");
    const draws = Array.from({ length: 5000 }, (_, n) => model.sample("gmail.users.messages.get", n));
    expect(median(draws)).toBeGreaterThan(medianMs * 0.9);
    expect(median(draws)).toBeLessThan(medianMs * 1.1);
    // A log-normal's p95 is exp(1.645 σ) medians.
    const p95 = quantile(draws, 0.95) / median(draws);
    expect(p95).toBeGreaterThan(Math.exp(1.645 * sigma) * 0.85);
    expect(p95).toBeLessThan(Math.exp(1.645 * sigma) * 1.15);
    expect(Math.min(...draws)).toBeGreaterThan(0);
  });

  test("when the same seed draws again, then it draws the same times; another seed draws others", () => {
    const draws = (seed: number): number[] =>
      Array.from({ length: 20 }, (_, n) => new LatencyModel({ seed }).sample("drive.files.list", n));
    expect(draws(7)).toEqual(draws(7));
    expect(draws(7)).not.toEqual(draws(8));
  });

  test("when a method has its own entry, then it takes its API's entry and then its own; unknown methods the defaults", () => {
    const model = new LatencyModel();
    expect(model.parameters("gmail.users.messages.import")).toMatchObject({
      medianMs: LATENCY_MODEL["gmail.users.messages.import"]?.medianMs,
      uploadBytesPerSecond: LATENCY_MODEL["gmail.*"]?.uploadBytesPerSecond,
    });
    expect(model.parameters("drive.files.download").downloadBytesPerSecond).toBe(
      LATENCY_MODEL["drive.*"]?.downloadBytesPerSecond,
    );
    expect(model.parameters("something.else")).toEqual(LATENCY_MODEL["*"]);
    // Raw messages take longer the larger they are.
    expect(model.parameters("gmail.users.messages.get").perMiBMs).toBeGreaterThan(0);
  });

  test("when scale is set, then times are multiplied and bandwidths divided; off, nothing is drawn", () => {
    const model = new LatencyModel({ scale: 0.5 });
    const plain = new LatencyModel();
    const scaled = model.next("drive.files.download");
    const unscaled = plain.next("drive.files.download");
    expect(scaled?.firstByteMs).toBeCloseTo((unscaled?.firstByteMs ?? 0) * 0.5, 6);
    expect(scaled?.downloadBytesPerSecond).toBe((unscaled?.downloadBytesPerSecond ?? 0) * 2);
    model.configure({ enabled: false });
    expect(model.next("drive.files.download")).toBeUndefined();
    expect(() => model.configure({ scale: 0 })).toThrow("scale");
    expect(() => model.configure({ methods: { "*": { medianMs: -1 } } })).toThrow("medianMs");
    expect(() => model.configure({ methods: { "*": { speed: 1 } as never } })).toThrow("not a parameter");
  });
});

describe("answers through the official clients", () => {
  let harness: Harness;
  let userId: string;
  const clock = new ManualClock();
  beforeAll(async () => {
    // The quota clock runs 1,000 times faster: latency must not follow it.
    harness = await startHarness({ quota: { timeScale: 1000 }, clock });
    userId = harness.emulator.directory.user(TEST_USER)?.id as string;
  });
  afterAll(() => harness.stop());
  afterEach(async () => {
    await harness.admin("PATCH", "/latency", {
      enabled: true,
      methods: { "gmail.users.messages.get": null },
    });
  });

  test("when the server starts without options, then the model is on", async () => {
    const running = await startWorkspaceEmulator({ port: 0, profile: "empty" });
    expect(running.emulator.latency.settings.enabled).toBe(true);
    await running.stop();
  });

  test("when getProfile is called 40 times, then each answer takes its draw of the model on the emulator's clock, whatever the quota time scale", async () => {
    const gmail = harness.gmail(TEST_USER);
    await clock.run(gmail.users.getProfile({ userId: "me" })); // the token
    // A new seed starts the draws again: the n-th call below takes draw n.
    expect((await harness.admin("PATCH", "/latency", { seed: 4711 })).status).toBe(200);
    const times: number[] = [];
    for (let call = 0; call < 40; call += 1) {
      const started = clock.now();
      await clock.run(gmail.users.getProfile({ userId: "me" }));
      times.push(clock.now() - started);
    }
    const model = harness.emulator.latency;
    // To the millisecond: the answer waits for whole milliseconds of the clock.
    const off = times.map((time, n) => Math.abs(time - model.sample("gmail.users.getProfile", n)));
    expect(Math.max(...off)).toBeLessThanOrEqual(1);
    const { medianMs } = model.parameters("gmail.users.getProfile");
    expect(median(times)).toBeGreaterThan(medianMs / 2);
    expect(median(times)).toBeLessThan(medianMs * 2);
  });

  test("when a large raw message is read, then it streams at the model's bandwidth instead of arriving at once", async () => {
    const raw = messageOf("Large", Math.floor(1.5 * MiB));
    const { id } = harness.emulator.gmail.insertMessage(userId, raw);
    await harness.admin("PATCH", "/latency", {
      methods: {
        "gmail.users.messages.get": { medianMs: 20, sigma: 0, perMiBMs: 0, downloadBytesPerSecond: 2 * MiB },
      },
    });
    const { token } = await clock.run(harness.jwt(TEST_USER, [SCOPES.gmailReadonly]).getAccessToken());
    const url = new URL(`${harness.url}/gmail/v1/users/me/messages/${id}?format=raw`);
    const arrivals: { at: number; bytes: number }[] = [];
    const started = clock.now();
    const reading = new Promise<number>((resolve, reject) => {
      request(url, { headers: { authorization: `Bearer ${token ?? ""}` } }, (response) => {
        response.on("data", (chunk: Buffer) =>
          arrivals.push({ at: clock.now() - started, bytes: chunk.length }),
        );
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      })
        .on("error", reject)
        .end();
    });
    expect(await clock.run(reading)).toBe(200);
    const total = arrivals.reduce((sum, arrival) => sum + arrival.bytes, 0);
    const duration = arrivals.at(-1)?.at ?? 0;
    // About 2 MiB of JSON at 2 MiB/s after 20 ms: about a second, delivered piece by piece.
    expect(total).toBeGreaterThan(2 * MiB);
    const expected = 20 + (total / (2 * MiB)) * 1000;
    expect(duration).toBeGreaterThan(expected * 0.9);
    expect(duration).toBeLessThan(expected * 1.1);
    const byHalfway = arrivals
      .filter((arrival) => arrival.at <= duration / 2)
      .reduce((sum, a) => sum + a.bytes, 0);
    expect(byHalfway / total).toBeGreaterThan(0.2);
    expect(byHalfway / total).toBeLessThan(0.8);
  });

  test("when a message is imported by upload, then the body is read at the model's upload bandwidth", async () => {
    await harness.admin("PATCH", "/latency", {
      methods: {
        "gmail.users.messages.import": { medianMs: 20, sigma: 0, perMiBMs: 0, uploadBytesPerSecond: MiB },
      },
    });
    const gmail = harness.gmail(TEST_USER);
    await clock.run(gmail.users.getProfile({ userId: "me" }));
    const raw = messageOf("Upload paced", MiB);
    const started = clock.now();
    const { data } = await clock.run(
      gmail.users.messages.import({
        userId: "me",
        requestBody: { labelIds: ["INBOX"] },
        media: { mimeType: "message/rfc822", body: Readable.from([raw]) },
      }),
    );
    expect(data.id).toBeTruthy();
    // About 1.4 MiB (the attachment base64-encoded) at 1 MiB/s: what arrives ahead of it waits.
    expect(clock.now() - started).toBeGreaterThan(1_300);
    expect(clock.now() - started).toBeLessThan(2_000);
    await harness.admin("PATCH", "/latency", { methods: { "gmail.users.messages.import": null } });
  });

  test("when the model is read and switched through the admin API, then its parameters come back and a bad change is 400", async () => {
    const { status, body } = await harness.admin<{
      enabled: boolean;
      scale: number;
      seed: number;
      model: Record<string, { medianMs: number; downloadBytesPerSecond: number }>;
    }>("GET", "/latency");
    expect(status).toBe(200);
    expect(body.enabled).toBe(true);
    expect(body.model["gmail.users.messages.get"]?.medianMs).toBe(
      LATENCY_MODEL["gmail.users.messages.get"]?.medianMs,
    );
    expect(body.model["drive.files.download"]?.downloadBytesPerSecond).toBeGreaterThan(0);
    const off = await harness.admin<{ enabled: boolean; scale: number }>("PATCH", "/latency", {
      enabled: false,
      scale: 0.5,
    });
    expect(off.body).toMatchObject({ enabled: false, scale: 0.5 });
    expect(harness.emulator.latency.next("gmail.users.messages.get")).toBeUndefined();
    expect((await harness.admin("PATCH", "/latency", { scale: 0 })).status).toBe(400);
    expect((await harness.admin("PATCH", "/latency", { enabled: "yes" })).status).toBe(400);
    await harness.admin("PATCH", "/latency", { scale: 1 });
  });
});
