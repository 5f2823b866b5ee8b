import { TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";
import type { QuotaStats } from "../quota-models";

let harness: Harness;
let userId: string;

beforeAll(async () => {
  // A slow quota clock: buckets do not refill during the test. No latency model: units are tested, not time.
  harness = await startHarness({ quota: { timeScale: 0.0001 }, latency: { enabled: false } });
  userId = harness.emulator.directory.user(TEST_USER)?.id as string;
});
afterAll(() => harness.stop());

test("when Drive calls are made, then stats charge list 100 units and download 200", async () => {
  const drive = harness.drive(TEST_USER);
  const fileId = harness.emulator.drive.createFile({
    userId,
    name: "a.txt",
    mimeType: "text/plain",
    content: Buffer.from("a"),
  }).id;
  await drive.files.list({});
  await harness.admin("POST", "/stats:reset");
  await drive.files.list({});
  await drive.files.get({ fileId, alt: "media" }, { responseType: "arraybuffer" });
  await drive.files.get({ fileId });
  const { body } = await harness.admin<QuotaStats>("GET", "/stats");
  expect(body.users[TEST_USER]).toEqual({
    "drive.files.list": { calls: 1, units: 100, rejected: 0 },
    "drive.files.download": { calls: 1, units: 200, rejected: 0 },
    "drive.files.get": { calls: 1, units: 5, rejected: 0 },
  });
});

test("when a user's Drive units for the minute are spent, then Drive answers 403 userRateLimitExceeded", async () => {
  const drive = harness.drive(TEST_USER);
  await drive.files.list({});
  for (;;) {
    try {
      harness.emulator.quota.begin("drive.files.list", TEST_USER)();
    } catch {
      break;
    }
  }
  const failure = await googleError(drive.files.list({}));
  expect(failure.status).toBe(403);
  expect(failure.reason).toBe("userRateLimitExceeded");
  expect(failure.body).toMatchObject({ error: { errors: [{ domain: "usageLimits" }] } });
});
