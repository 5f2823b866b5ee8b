import { Readable } from "node:stream";
import { ManualClock } from "../../kit/src/index";
import { FaultInjector } from "./faults";
import { TEST_ADMIN, TEST_USER, googleError, startHarness, type Harness } from "./testing/harness";

describe("fault rules", () => {
  test("when a rule names a method prefix and a user, then only matching calls get the fault", () => {
    const faults = new FaultInjector();
    faults.add({ method: "gmail.*", user: "A@x.test", action: { kind: "error", status: 503 } });
    expect(faults.pick("gmail.users.messages.get", "a@x.test")).toEqual([{ kind: "error", status: 503 }]);
    expect(faults.pick("gmail.users.messages.get", "b@x.test")).toEqual([]);
    expect(faults.pick("drive.files.get", "a@x.test")).toEqual([]);
  });

  test("when a rule has a probability, then the same seed fires on the same calls", () => {
    const draw = (seed: number): boolean[] => {
      const faults = new FaultInjector(seed);
      faults.add({ method: "*", action: { kind: "error", status: 500 }, probability: 0.3 });
      return Array.from({ length: 200 }, () => faults.pick("drive.files.get", undefined).length > 0);
    };
    const first = draw(7);
    expect(draw(7)).toEqual(first);
    const fired = first.filter(Boolean).length;
    expect(fired).toBeGreaterThan(30);
    expect(fired).toBeLessThan(90);
  });

  test("when a rule has times or a sequence, then it ends by itself", () => {
    const faults = new FaultInjector();
    faults.add({ method: "drive.files.get", action: { kind: "reset" }, times: 2 });
    faults.add({ method: "drive.files.list", sequence: ["ok", { kind: "error", status: 429 }] });
    expect(faults.pick("drive.files.get", undefined)).toEqual([{ kind: "reset" }]);
    expect(faults.pick("drive.files.get", undefined)).toEqual([{ kind: "reset" }]);
    expect(faults.pick("drive.files.get", undefined)).toEqual([]);
    expect(faults.pick("drive.files.list", undefined)).toEqual([]);
    expect(faults.pick("drive.files.list", undefined)).toEqual([{ kind: "error", status: 429 }]);
    expect(faults.pick("drive.files.list", undefined)).toEqual([]);
    expect(faults.list()).toEqual([]);
  });

  test("when a rule is malformed, then adding it is refused", () => {
    const faults = new FaultInjector();
    expect(() => faults.add({ method: "*" })).toThrow();
    expect(() => faults.add({ action: { kind: "error", status: 200 } })).toThrow();
    expect(() => faults.add({ action: { kind: "latency", ms: -1 } })).toThrow();
    expect(() => faults.add({ action: { kind: "reset" }, probability: 2 })).toThrow();
  });
});

describe("faults on the wire, through the admin API", () => {
  let harness: Harness;
  let clock: ManualClock;
  beforeEach(async () => {
    // Fault timings are measured alone: the latency model is off for this file's emulators. Injected
    // delays pass on the emulator's clock, which the test moves.
    clock = new ManualClock();
    harness = await startHarness({ latency: { enabled: false }, clock });
  });
  afterEach(() => harness.stop());

  test("when a 503 is scripted, then the client sees Google's backendError body; the next call succeeds", async () => {
    const added = await harness.admin<{ id: string }>("POST", "/faults", {
      method: "directory.users.list",
      user: TEST_ADMIN,
      sequence: [{ kind: "error", status: 503 }],
    });
    expect(added.status).toBe(200);
    const directory = harness.directory(TEST_ADMIN);
    const failure = await googleError(directory.users.list({ customer: "my_customer" }, { retry: false }));
    expect(failure).toMatchObject({ status: 503, reason: "backendError" });
    expect(failure.body).toMatchObject({ error: { code: 503, status: "UNAVAILABLE" } });
    const { data } = await directory.users.list({ customer: "my_customer" }, { retry: false });
    expect(data.users?.length).toBe(2);
  });

  test("when transient errors come and go, then the official client's own retries get through", async () => {
    await harness.admin("POST", "/faults", {
      method: "directory.users.get",
      sequence: [
        { kind: "error", status: 500 },
        { kind: "error", status: 429 },
      ],
    });
    const { data } = await harness.directory(TEST_ADMIN).users.get({ userKey: TEST_USER });
    expect(data.primaryEmail).toBe(TEST_USER);
    const stats = await harness.admin<{ users: Record<string, Record<string, { calls: number }>> }>(
      "GET",
      "/stats",
    );
    expect(stats.body.users[TEST_ADMIN]?.["directory.users.get"]?.calls).toBe(1);
  });

  test("when a reset is injected, then the connection drops without a response", async () => {
    await harness.admin("POST", "/faults", {
      method: "directory.users.get",
      action: { kind: "reset" },
      times: 1,
    });
    let failure: unknown;
    try {
      await harness.directory(TEST_ADMIN).users.get({ userKey: TEST_USER }, { retry: false });
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeDefined();
    expect((failure as { response?: unknown }).response).toBeUndefined();
  });

  test("when a body is truncated, then the client cannot parse the answer", async () => {
    await harness.admin("POST", "/faults", {
      method: "directory.users.get",
      action: { kind: "truncate" },
      times: 1,
    });
    await expect(
      harness.directory(TEST_ADMIN).users.get({ userKey: TEST_USER }, { retry: false }),
    ).rejects.toThrow();
    const { data } = await harness.directory(TEST_ADMIN).users.get({ userKey: TEST_USER });
    expect(data.primaryEmail).toBe(TEST_USER);
  });

  test("when latency is injected, then the answer still comes, later", async () => {
    const directory = harness.directory(TEST_ADMIN);
    await directory.users.get({ userKey: TEST_ADMIN }); // the token, before the delay applies
    await harness.admin("POST", "/faults", {
      method: "directory.users.get",
      action: { kind: "latency", ms: 150 },
    });
    const started = clock.now();
    const { data } = await clock.run(directory.users.get({ userKey: TEST_USER }));
    expect(data.primaryEmail).toBe(TEST_USER);
    expect(clock.now() - started).toBe(150);
  });

  test("when a hold is added, then matching calls wait until the rule is removed, and the test hears when they are held", async () => {
    const { body: rule } = await harness.admin<{ id: string }>("POST", "/faults", {
      method: "directory.users.get",
      action: { kind: "hold" },
    });
    let answered = false;
    const call = harness
      .directory(TEST_ADMIN)
      .users.get({ userKey: TEST_USER })
      .then((answer) => {
        answered = true;
        return answer;
      });
    const held = await harness.admin<{ held: number }>("GET", `/faults/${rule.id}/held?count=1`);
    expect(held).toMatchObject({ status: 200, body: { held: 1 } });
    expect(answered).toBe(false);
    expect((await harness.admin("DELETE", `/faults/${rule.id}`)).status).toBe(204);
    expect((await call).data.primaryEmail).toBe(TEST_USER);
  });

  test("when fewer calls than asked are held within the time given, then the admin API says so with 408", async () => {
    const { body: rule } = await harness.admin<{ id: string }>("POST", "/faults", {
      method: "directory.users.get",
      action: { kind: "hold" },
    });
    expect((await harness.admin("GET", `/faults/${rule.id}/held?count=1&withinMs=0`)).status).toBe(408);
    expect((await harness.admin("GET", "/faults/none/held")).status).toBe(404);
  });

  test("when faults are listed, removed and cleared, then the admin API reflects it; bad rules are 400", async () => {
    const { body: rule } = await harness.admin<{ id: string }>("POST", "/faults", {
      action: { kind: "reset" },
    });
    expect((await harness.admin<{ faults: unknown[] }>("GET", "/faults")).body.faults).toHaveLength(1);
    expect((await harness.admin("DELETE", `/faults/${rule.id}`)).status).toBe(204);
    expect((await harness.admin("DELETE", `/faults/${rule.id}`)).status).toBe(404);
    await harness.admin("POST", "/faults", { action: { kind: "reset" } });
    expect((await harness.admin("DELETE", "/faults")).status).toBe(204);
    expect((await harness.admin<{ faults: unknown[] }>("GET", "/faults")).body.faults).toHaveLength(0);
    const bad = await harness.admin<{ error: { code: number } }>("POST", "/faults", {
      action: { kind: "explode" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe(400);
  });
});

describe("quota settings and stats through the admin API", () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await startHarness({ latency: { enabled: false } });
  });
  afterEach(() => harness.stop());

  test("when settings are patched, then they apply; invalid ones are 400", async () => {
    const patched = await harness.admin("PATCH", "/quota", {
      enabled: false,
      model: "legacy",
      timeScale: 60,
    });
    expect(patched).toEqual({
      status: 200,
      body: { enabled: false, model: "legacy", timeScale: 60, projects: {}, gmailUserLimit: "alternate" },
    });
    expect((await harness.admin("PATCH", "/quota", { model: "2027" })).status).toBe(400);
    expect((await harness.admin("PATCH", "/quota", { timeScale: 0 })).status).toBe(400);
    expect((await harness.admin("PATCH", "/quota", { enabled: "yes" })).status).toBe(400);
  });

  test("when directory calls are made, then stats report calls and units per user and method, and reset clears them", async () => {
    const directory = harness.directory(TEST_ADMIN);
    await directory.users.list({ customer: "my_customer" });
    await directory.users.get({ userKey: TEST_USER });
    await directory.users.get({ userKey: TEST_ADMIN });
    const { body } = await harness.admin<{
      users: Record<string, Record<string, { calls: number; units: number }>>;
      project: Record<string, { units: number }>;
    }>("GET", "/stats");
    expect(body.users[TEST_ADMIN]).toEqual({
      "directory.users.list": { calls: 1, units: 1, rejected: 0 },
      "directory.users.get": { calls: 2, units: 2, rejected: 0 },
    });
    expect(body.project.directory?.units).toBe(3);
    await harness.admin("POST", "/stats:reset");
    expect((await harness.admin<{ users: object }>("GET", "/stats")).body.users).toEqual({});
  });

  test("when the service-account key is requested, then it is the JSON the client libraries read", async () => {
    const { body } = await harness.admin<Record<string, string>>("GET", "/service-account");
    expect(body).toMatchObject({
      type: "service_account",
      client_email: expect.stringMatching(/@demo-alpvault\.iam\.gserviceaccount\.com$/),
      private_key: expect.stringContaining("BEGIN PRIVATE KEY"),
      token_uri: `${harness.url}/token`,
    });
  });
});

describe("the test-only corrupt-upload fault", () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await startHarness({ latency: { enabled: false } });
  });
  afterEach(() => harness.stop());

  const message = (subject: string) =>
    Buffer.from(
      `From: a@x.test\r\nTo: ${TEST_USER}\r\nSubject: ${subject}\r\nMessage-ID: <${subject}@x.test>\r\n` +
        `Date: Tue, 24 Nov 2026 10:00:00 +0000\r\n\r\nThe quarterly figures are attached.\r\n`,
    );

  test("when it fires on an import, then the stored message differs by one byte and the next import is intact", async () => {
    await harness.admin("POST", "/faults", {
      method: "gmail.users.messages.import",
      user: TEST_USER,
      action: { kind: "corrupt-upload" },
      times: 1,
    });
    const gmail = harness.gmail(TEST_USER);
    const roundTrip = async (raw: Buffer) => {
      const { data } = await gmail.users.messages.import({
        userId: "me",
        requestBody: {},
        media: { mimeType: "message/rfc822", body: Readable.from([raw]) },
      });
      const got = await gmail.users.messages.get({ userId: "me", id: data.id!, format: "raw" });
      return Buffer.from(got.data.raw!, "base64url");
    };
    const first = message("first");
    const back = await roundTrip(first);
    expect(back.length).toBe(first.length);
    expect([...back].filter((byte, index) => byte !== first[index]).length).toBe(1);
    const second = message("second");
    expect((await roundTrip(second)).equals(second)).toBe(true);
  });

  test("when it fires on a Drive upload, then the downloaded file differs from what was sent", async () => {
    await harness.admin("POST", "/faults", {
      method: "drive.files.create",
      user: TEST_USER,
      action: { kind: "corrupt-upload" },
      times: 1,
    });
    const drive = harness.drive(TEST_USER);
    const content = Buffer.from("Budget 2027, line by line\n".repeat(100));
    const { data } = await drive.files.create({
      requestBody: { name: "budget.txt" },
      media: { mimeType: "text/plain", body: Readable.from([content]) },
      fields: "id",
    });
    const download = await drive.files.get(
      { fileId: data.id!, alt: "media" },
      { responseType: "arraybuffer" },
    );
    const back = Buffer.from(download.data as ArrayBuffer);
    expect(back.length).toBe(content.length);
    expect(back.equals(content)).toBe(false);
  });
});
