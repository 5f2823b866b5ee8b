/**
 * The quota-aware caller against the Workspace emulator (quotas on, latency model on), with the official
 * Gmail client built the way the engine builds it (`googleClientOptions`: the client does not retry). The
 * emulator and the caller share one `ManualClock` that each test moves (`driven`): quota minutes, Google's
 * answer times and the caller's backoff pass on it, so the pace measured is the caller's, not the machine's.
 */
import { drive_v3 } from "@googleapis/drive";
import { gmail_v1 } from "@googleapis/gmail";
import {
  DRIVE_UPLOAD_BYTES_PER_USER_PER_DAY,
  type FaultRuleInput,
  type Harness,
  ManualClock,
  QUOTA_MODELS,
  type QuotaStats,
  QuotaTracker,
  SCOPES,
  startHarness,
  TEST_DOMAIN,
  TEST_USER,
  testMessage,
} from "../../emulators/workspace/src/index";
import type { GoogleApi, GoogleRequest } from "../../functions/src/engine/google/caller";
import {
  GOOGLE_QUOTA_LIMITS,
  QUOTA_MODELS as ENGINE_MODELS,
  UNIT_COSTS,
  unitCost,
} from "../../functions/src/engine/google/costs";
import { googleClientOptions } from "../../functions/src/engine/google/client-options";
import { GoogleCallError, classifyGoogleError } from "../../functions/src/engine/google/errors";
import { quotaAwareCaller, type QuotaCallerOptions } from "../../functions/src/engine/google/quota-caller";

const MINUTE_MS = 60_000;
const GMAIL_PER_USER_PER_MINUTE = 6_000;
const clock = new ManualClock();

/** A test body run with the clock moving whenever everything waits for it. */
function driven(body: () => Promise<void>): () => Promise<void> {
  return () => clock.run(body());
}

const GET: GoogleRequest = {
  api: "gmail",
  user: TEST_USER,
  method: "gmail.users.messages.get",
  idempotent: true,
};
const IMPORT: GoogleRequest = { ...GET, method: "gmail.users.messages.import", idempotent: false };
const PROFILE: GoogleRequest = { ...GET, method: "gmail.users.getProfile" };

let harness: Harness;
let gmail: gmail_v1.Gmail;
let messageIds: string[];

function gmailClient(): gmail_v1.Gmail {
  const auth = harness.jwt(TEST_USER, [SCOPES.gmailModify, SCOPES.gmailInsert]);
  return new gmail_v1.Gmail(googleClientOptions({ auth, rootUrl: `${harness.url}/` }));
}

/** Quick retries: the backoff's shape is unit-tested; here only what is retried matters. */
function caller(options: QuotaCallerOptions = {}) {
  return quotaAwareCaller({ clock, retry: { baseDelayMs: 10, maxDelayMs: 100 }, ...options });
}

async function addFault(rule: FaultRuleInput): Promise<void> {
  const { status } = await harness.admin("POST", "/faults", { user: TEST_USER, ...rule });
  expect(status).toBe(200);
}

async function emulatorStats(): Promise<QuotaStats> {
  return (await harness.admin<QuotaStats>("GET", "/stats")).body;
}

function userId(): string {
  return harness.emulator.directory.user(TEST_USER)?.id ?? "";
}

beforeAll(async () => {
  harness = await startHarness({ clock });
  gmail = gmailClient();
  messageIds = Array.from(
    { length: 50 },
    (_, i) => harness.emulator.gmail.insertMessage(userId(), testMessage({ subject: `Quota ${i}` })).id,
  );
});
afterAll(() => harness.stop());
beforeEach(async () => {
  await harness.admin("DELETE", "/faults");
  await harness.admin("POST", "/stats:reset");
});

test("when the engine's unit costs and limits are compared with the emulator's (Google's 2026 model), then they agree", () => {
  const tracker = new QuotaTracker({ model: "2026" });
  const model = QUOTA_MODELS["2026"];
  for (const [method, units] of Object.entries(UNIT_COSTS))
    expect([method, units]).toEqual([method, tracker.cost(method)]);
  for (const api of ["gmail", "drive"] as const) {
    for (const [method, units] of Object.entries(model[api].costs)) {
      expect([method, unitCost(method)]).toEqual([method, units]);
    }
  }
  for (const api of ["gmail", "drive", "directory"] as GoogleApi[]) {
    const { perUserPerMinute, perProjectPerMinute, concurrentPerUser } = model[api];
    expect(GOOGLE_QUOTA_LIMITS[api]).toEqual({ perUserPerMinute, perProjectPerMinute, concurrentPerUser });
  }
  // The daily thresholds the time left is estimated with (engine/eta): units, Drive's egress and uploads.
  const engine = ENGINE_MODELS["2026"];
  expect(engine.dailyUnits).toEqual({
    gmail: model.gmail.daily.unitsPerProject,
    drive: model.drive.daily.unitsPerProject,
  });
  expect(engine.dailyBytes).toEqual({
    driveEgressPerProject: model.drive.daily.egressBytesPerProject,
    driveUploadPerUser: DRIVE_UPLOAD_BYTES_PER_USER_PER_DAY,
  });
});

test(
  "when many messages.get go through the caller, then the emulator never answers 429, both count the same units, and after the first full bucket the caller holds 97 % of the per-user limit",
  driven(async () => {
    const quotaCaller = caller();
    const calls = 400; // 8,000 units: the first full bucket, then about 20 s of a quota minute's pace
    const started = clock.now();
    let lastSent = started;
    await Promise.all(
      Array.from({ length: calls }, (_, i) =>
        quotaCaller.call(GET, () => {
          lastSent = clock.now();
          return gmail.users.messages.get({
            userId: "me",
            id: messageIds[i % messageIds.length],
            format: "raw",
          });
        }),
      ),
    );
    const sendingMinutes = (lastSent - started) / MINUTE_MS;

    const ours = quotaCaller.stats().methods[GET.method];
    const theirs = (await emulatorStats()).users[TEST_USER]?.[GET.method];
    expect(ours).toMatchObject({ calls, attempts: calls, retries: 0, failures: 0, units: calls * 20 });
    expect(theirs).toEqual({ calls, units: calls * 20, rejected: 0 });

    // The caller spends a full bucket at once; the steady rate is what follows it, until the last call is
    // sent, on the clock Google's buckets refill on: 97 % of the limit (to the clock's millisecond).
    const units = calls * 20;
    const firstBucket = GMAIL_PER_USER_PER_MINUTE * 0.97;
    const steady = (units - firstBucket) / sendingMinutes / GMAIL_PER_USER_PER_MINUTE;
    expect(steady).toBeGreaterThan(0.969);
    expect(steady).toBeLessThanOrEqual(0.97);
  }),
);

test(
  "when Drive downloads stream in parallel, then each holds its user's slot until read and Drive never refuses one",
  driven(async () => {
    const drive = new drive_v3.Drive(
      googleClientOptions({ auth: harness.jwt(TEST_USER, [SCOPES.drive]), rootUrl: `${harness.url}/` }),
    );
    const content = Buffer.alloc(4 * 1024 * 1024, 7);
    const fileIds = Array.from(
      { length: 14 },
      (_, i) =>
        harness.emulator.drive.createFile({
          userId: userId(),
          name: `f${i}.bin`,
          mimeType: "application/octet-stream",
          content,
        }).id,
    );
    const download: GoogleRequest = { ...GET, api: "drive", method: "drive.files.download" };
    const quotaCaller = caller();
    const sizes = await Promise.all(
      fileIds.map(async (fileId) => {
        const response = await quotaCaller.call(download, () =>
          drive.files.get({ fileId, alt: "media" }, { responseType: "stream" }),
        );
        // A consumer busy with earlier chunks: the body is read a little later.
        await clock.sleep(50);
        let size = 0;
        for await (const chunk of response.data as AsyncIterable<Buffer>) size += chunk.length;
        return size;
      }),
    );
    expect(sizes).toEqual(fileIds.map(() => content.length));
    expect(quotaCaller.stats().methods[download.method]).toMatchObject({
      calls: 14,
      attempts: 14,
      retries: 0,
    });
    expect((await emulatorStats()).users[TEST_USER]?.[download.method]).toEqual({
      calls: 14,
      units: 2_800,
      rejected: 0,
    });
  }),
);

test(
  "when 429, 403 rateLimitExceeded, 503 and a connection reset are injected, then the GET is retried and succeeds",
  driven(async () => {
    await addFault({
      method: GET.method,
      sequence: [
        { kind: "error", status: 429 },
        { kind: "error", status: 403, reason: "rateLimitExceeded" },
        { kind: "error", status: 503 },
        { kind: "reset" },
      ],
    });
    const quotaCaller = caller();
    const response = await quotaCaller.call(GET, () =>
      gmail.users.messages.get({ userId: "me", id: messageIds[0], format: "raw" }),
    );
    expect(response.data.id).toBe(messageIds[0]);
    expect(quotaCaller.stats().methods[GET.method]).toMatchObject({
      calls: 1,
      attempts: 5,
      retries: 4,
      failures: 0,
    });
    expect((await harness.admin<{ faults: unknown[] }>("GET", "/faults")).body.faults).toEqual([]);
    expect((await emulatorStats()).users[TEST_USER]?.[GET.method]).toMatchObject({ calls: 1, units: 20 });
  }),
);

test(
  "when faults are injected at random into many calls, then every call succeeds and none is counted twice",
  driven(async () => {
    await addFault({ method: GET.method, action: { kind: "error", status: 503 }, probability: 0.2 });
    await addFault({ method: GET.method, action: { kind: "reset" }, probability: 0.1 });
    await addFault({ method: GET.method, action: { kind: "error", status: 429 }, probability: 0.1 });
    const quotaCaller = caller({ retry: { maxAttempts: 20, baseDelayMs: 5, maxDelayMs: 50 } });
    const responses = await Promise.all(
      messageIds.map((id) =>
        quotaCaller.call(GET, () => gmail.users.messages.get({ userId: "me", id, format: "raw" })),
      ),
    );
    expect(responses.map((response) => response.data.id)).toEqual(messageIds);
    const ours = quotaCaller.stats().methods[GET.method];
    expect(ours?.retries).toBeGreaterThan(0);
    expect(ours?.failures).toBe(0);
    expect((await emulatorStats()).users[TEST_USER]?.[GET.method]?.calls).toBe(messageIds.length);
  }),
);

test(
  "when clients are built with googleClientOptions, then the client itself does not retry a 503",
  driven(async () => {
    // The fault's second step would let a retry through; only the caller may decide to retry.
    await addFault({ method: GET.method, sequence: [{ kind: "error", status: 503 }, "ok"] });
    const quotaCaller = caller({ retry: { maxAttempts: 1 } });
    const error = await quotaCaller
      .call(GET, () => gmail.users.messages.get({ userId: "me", id: messageIds[0], format: "raw" }))
      .catch((rejection: unknown) => rejection);
    expect(error).toBeInstanceOf(GoogleCallError);
    expect(classifyGoogleError(error)).toMatchObject({
      kind: "fatal",
      reason: "google-api-error",
      status: 503,
    });
    expect((await harness.admin<{ faults: unknown[] }>("GET", "/faults")).body.faults).toHaveLength(1);
  }),
);

test.each([
  ["503", { kind: "error", status: 503 }],
  ["a connection reset", { kind: "reset" }],
] as const)("when messages.import meets %s, then it is not retried", (_name, fault) =>
  clock.run(
    (async () => {
      await addFault({ method: IMPORT.method, sequence: [fault, "ok"] });
      const before = harness.emulator.gmail.profile(userId()).messagesTotal;
      const quotaCaller = caller();
      const raw = testMessage({ subject: "Restored" }).toString("base64url");
      const error = await quotaCaller
        .call(IMPORT, () =>
          gmail.users.messages.import({ userId: "me", requestBody: { raw, labelIds: ["INBOX"] } }),
        )
        .catch((rejection: unknown) => rejection);
      expect(error).toBeInstanceOf(GoogleCallError);
      expect((error as GoogleCallError).attempts).toBe(1);
      expect(classifyGoogleError(error)).toMatchObject({ kind: "fatal", reason: "google-api-error" });
      expect(quotaCaller.stats().methods[IMPORT.method]).toMatchObject({
        attempts: 1,
        retries: 0,
        failures: 1,
      });
      expect((await harness.admin<{ faults: unknown[] }>("GET", "/faults")).body.faults).toHaveLength(1);
      expect(harness.emulator.gmail.profile(userId()).messagesTotal).toBe(before);
    })(),
  ),
);

test(
  "when messages.import meets a 429, then it is retried and imports the message once",
  driven(async () => {
    await addFault({ method: IMPORT.method, sequence: [{ kind: "error", status: 429 }] });
    const quotaCaller = caller();
    const raw = testMessage({ subject: "Restored once" }).toString("base64url");
    const response = await quotaCaller.call(IMPORT, () =>
      gmail.users.messages.import({ userId: "me", requestBody: { raw, labelIds: ["INBOX"] } }),
    );
    expect(response.data.id).toBeTruthy();
    expect(quotaCaller.stats().methods[IMPORT.method]).toMatchObject({ attempts: 2, retries: 1 });
    expect((await emulatorStats()).users[TEST_USER]?.[IMPORT.method]).toMatchObject({ calls: 1, units: 25 });
  }),
);

test(
  "when a message was deleted meanwhile (404), then the error is an item error, not retried",
  driven(async () => {
    const { id } = harness.emulator.gmail.insertMessage(userId(), testMessage({ subject: "Gone soon" }));
    harness.emulator.gmail.deleteMessage(userId(), id);
    const quotaCaller = caller();
    const error = await quotaCaller
      .call(GET, () => gmail.users.messages.get({ userId: "me", id, format: "raw" }))
      .catch((rejection: unknown) => rejection);
    expect(classifyGoogleError(error)).toEqual({ kind: "item", status: 404, googleReason: "notFound" });
    expect(quotaCaller.stats().methods[GET.method]).toMatchObject({ attempts: 1, failures: 1 });
  }),
);

test(
  "when the app is uninstalled, then calls fail as the run's fatal google-api-error",
  driven(async () => {
    const quotaCaller = caller();
    const withToken = gmailClient();
    await quotaCaller.call(PROFILE, () => withToken.users.getProfile({ userId: "me" }));
    const { status } = await harness.admin("POST", `/customers/${TEST_DOMAIN}/app:uninstall`);
    expect(status).toBe(200);
    try {
      // A token issued before: revoked. A new token: delegation refused.
      for (const client of [withToken, gmailClient()]) {
        const error = await quotaCaller
          .call(PROFILE, () => client.users.getProfile({ userId: "me" }))
          .catch((rejection: unknown) => rejection);
        expect(classifyGoogleError(error)).toMatchObject({ kind: "fatal", reason: "google-api-error" });
        expect((error as GoogleCallError).attempts).toBe(1);
      }
    } finally {
      await harness.admin("POST", `/customers/${TEST_DOMAIN}/app:install`, {});
    }
  }),
);
