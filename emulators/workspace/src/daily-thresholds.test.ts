/**
 * Drive's daily thresholds through the official client: 750 GB of uploads per user a day, and the
 * project's daily egress. Latency is off for this file's emulator: the thresholds count bytes, not time.
 */
import { Readable } from "node:stream";
import type { QuotaStats } from "./quota-models";
import { TEST_USER, googleError, startHarness, type Harness } from "./testing/harness";

let harness: Harness;
let userId: string;
const PROJECT = "alpvault-backup-2026";

beforeEach(async () => {
  harness = await startHarness({ projectId: PROJECT, latency: { enabled: false } });
  userId = harness.emulator.directory.user(TEST_USER)?.id as string;
});
afterEach(() => harness.stop());

async function stats(): Promise<QuotaStats> {
  return (await harness.admin<QuotaStats>("GET", "/stats")).body;
}

test("when a user uploads, then the bytes count toward their day; once 750 GB are in, new uploads are 403 userRateLimitExceeded and reads go on", async () => {
  const drive = harness.drive(TEST_USER);
  const content = Buffer.alloc(100_000, 7);
  await drive.files.create({
    requestBody: { name: "plan.bin" },
    media: { mimeType: "application/octet-stream", body: Readable.from([content]) },
  });
  const before = await stats();
  expect(before.driveUploads[before.quotaDay]?.[TEST_USER]).toBeGreaterThanOrEqual(content.length);

  // The rest of the day's 750 GB, counted without sending it.
  harness.emulator.quota.countUpload(TEST_USER, 750_000_000_000);
  const refused = await googleError(
    drive.files.create(
      { requestBody: { name: "more.bin" }, media: { mimeType: "text/plain", body: Readable.from(["more"]) } },
      { retry: false },
    ),
  );
  expect(refused.body).toEqual({
    error: {
      code: 403,
      message: "User rate limit exceeded.",
      errors: [
        { message: "User rate limit exceeded.", domain: "usageLimits", reason: "userRateLimitExceeded" },
      ],
      status: "PERMISSION_DENIED",
    },
  });
  await expect(drive.files.list({})).resolves.toMatchObject({ status: 200 });
  const after = await stats();
  expect(after.users[TEST_USER]?.["drive.files.create"]?.rejected).toBe(1);
});

test("when a resumable upload sends its bytes in chunks, then the chunks count toward the user's day", async () => {
  const { token } = await harness.jwt(TEST_USER, ["https://www.googleapis.com/auth/drive"]).getAccessToken();
  const started = await fetch(`${harness.url}/upload/drive/v3/files?uploadType=resumable`, {
    method: "POST",
    headers: { authorization: `Bearer ${token ?? ""}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "chunks.bin" }),
  });
  expect(started.status).toBe(200);
  const location = started.headers.get("location") as string;
  const chunk = Buffer.alloc(256 * 1024, 1);
  const first = await fetch(location, {
    method: "PUT",
    headers: { "content-range": `bytes 0-${chunk.length - 1}/${chunk.length * 2}` },
    body: chunk,
  });
  expect(first.status).toBe(308);
  const last = await fetch(location, {
    method: "PUT",
    headers: { "content-range": `bytes ${chunk.length}-${chunk.length * 2 - 1}/${chunk.length * 2}` },
    body: chunk,
  });
  expect(last.status).toBe(200);
  const body = await stats();
  expect(body.driveUploads[body.quotaDay]?.[TEST_USER]).toBeGreaterThanOrEqual(chunk.length * 2);
});

test("when the project's Drive egress for the day is used up, then Drive answers 403 dailyLimitExceeded; Gmail still answers", async () => {
  const fileId = harness.emulator.drive.createFile({
    userId,
    name: "report.bin",
    mimeType: "application/octet-stream",
    content: Buffer.alloc(20_000, 3),
  }).id;
  // The project lowers its daily egress to 10 KB (a quota override), so the test need not send 1 TB.
  await harness.admin("PATCH", "/quota", { projects: { [PROJECT]: { driveEgressBytesPerDay: 10_000 } } });
  const drive = harness.drive(TEST_USER);
  await drive.files.get({ fileId, alt: "media" }, { responseType: "arraybuffer" });
  const refused = await googleError(drive.files.get({ fileId }, { retry: false }));
  expect(refused.body).toEqual({
    error: {
      code: 403,
      message: "Daily Limit Exceeded",
      errors: [{ message: "Daily Limit Exceeded", domain: "usageLimits", reason: "dailyLimitExceeded" }],
      status: "PERMISSION_DENIED",
    },
  });
  await expect(harness.gmail(TEST_USER).users.getProfile({ userId: "me" })).resolves.toMatchObject({
    status: 200,
  });
  const body = await stats();
  expect(body.projects[body.quotaDay]?.[PROJECT]?.driveEgressBytes).toBeGreaterThanOrEqual(20_000);
});
