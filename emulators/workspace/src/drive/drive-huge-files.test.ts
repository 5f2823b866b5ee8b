import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SCOPES } from "../auth";
import { startWorkspaceEmulator } from "../server";
import { TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";

const GIB = 1024 ** 3;
const HUGE = 3 * GIB;
const MIB = 1024 * 1024;

let harness: Harness;
let hugeId: string;
let hugeMd5: string;

beforeAll(async () => {
  // Streaming 3 GiB tests memory, not Google's bandwidth: no latency model, no quota.
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  const created = await harness.admin<{ id: string; size: string; md5Checksum: string }>(
    "POST",
    `/users/${TEST_USER}/drive/files`,
    { name: "Firmenvideo.mp4", mimeType: "video/mp4", generated: { seed: "huge-file-test", size: HUGE } },
  );
  expect(created.status).toBe(200);
  expect(created.body.size).toBe(String(HUGE));
  hugeId = created.body.id;
  hugeMd5 = created.body.md5Checksum;
}, 120_000);
afterAll(() => harness.stop());

const range = async (header: string) => {
  const answer = await harness
    .drive(TEST_USER)
    .files.get({ fileId: hugeId, alt: "media" }, { responseType: "arraybuffer", headers: { Range: header } });
  return {
    status: answer.status,
    contentRange: (answer.headers as Record<string, string>)["content-range"],
    body: Buffer.from(answer.data as unknown as ArrayBuffer),
  };
};

describe("a 3 GiB file", () => {
  test("when its metadata is read, then size, md5 and sha256 describe all 3 GiB", async () => {
    const { data } = await harness.drive(TEST_USER).files.get({
      fileId: hugeId,
      fields: "size,md5Checksum,sha256Checksum,quotaBytesUsed",
    });
    expect(data.size).toBe("3221225472");
    expect(data.md5Checksum).toMatch(/^[0-9a-f]{32}$/);
    expect(data.sha256Checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(data.quotaBytesUsed).toBe("3221225472");
  });

  test("when it is read whole as a stream, then every byte comes through, its md5 matches, ranges agree with it, and memory stays flat", async () => {
    // Byte ranges to compare with the whole read: the start, across 2 GiB (past 32-bit offsets), the end.
    const probes = [
      { start: 0, end: MIB - 1 },
      { start: 2 * GIB - 10, end: 2 * GIB + 9 },
      { start: HUGE - 100, end: HUGE - 1 },
    ];
    const answers: Buffer[] = [];
    for (const probe of probes) {
      const answer = await range(`bytes=${probe.start}-${probe.end}`);
      expect(answer.status).toBe(206);
      expect(answer.contentRange).toBe(`bytes ${probe.start}-${probe.end}/${HUGE}`);
      expect(answer.body.length).toBe(probe.end - probe.start + 1);
      answers.push(answer.body);
    }
    expect((await range("bytes=-100")).body.equals(answers[2] as Buffer)).toBe(true);

    const seen = probes.map(() => [] as Buffer[]);
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const md5 = createHash("md5");
    let position = 0;
    const { data } = await harness
      .drive(TEST_USER)
      .files.get({ fileId: hugeId, alt: "media" }, { responseType: "stream" });
    for await (const piece of data as unknown as AsyncIterable<Uint8Array>) {
      const chunk = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
      md5.update(chunk);
      probes.forEach((probe, index) => {
        const from = Math.max(probe.start, position);
        const to = Math.min(probe.end + 1, position + chunk.length);
        if (from < to) seen[index]?.push(Buffer.from(chunk.subarray(from - position, to - position)));
      });
      position += chunk.length;
      if (position % (256 * MIB) < chunk.length) rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }
    expect(position).toBe(HUGE);
    expect(md5.digest("hex")).toBe(hugeMd5);
    probes.forEach((_, index) =>
      expect(Buffer.concat(seen[index] ?? []).equals(answers[index] as Buffer)).toBe(true),
    );
    // 3 GiB passed through; the process grew by far less than that.
    expect(rssPeak - rssBefore).toBeLessThan(256 * MIB);
  }, 300_000);

  test("when a range starts past the end, then Drive answers 416 with the size in Content-Range", async () => {
    const refused = await googleError(range(`bytes=${HUGE}-`));
    expect(refused.status).toBe(416);
    expect(refused.reason).toBe("requestedRangeNotSatisfiable");
  });

  test("when the state is saved and loaded, then the file is kept as its description and reads the same", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "alpvault-drive-state-"));
    try {
      const first = await startWorkspaceEmulator({
        port: 0,
        dataDir,
        profile: "empty",
        latency: { enabled: false },
      });
      first.emulator.directory.addCustomer({ domain: "example-test.test", installed: true, scopes: [] });
      const owner = first.emulator.directory.addUser({
        email: TEST_USER,
        givenName: "Test",
        familyName: "User",
      });
      const { id } = first.emulator.drive.createFile({
        userId: owner.id,
        name: "Firmenvideo.mp4",
        mimeType: "video/mp4",
        generated: { kind: "generated", seed: "huge-file-test", size: HUGE },
      });
      await first.emulator.drive.settled();
      await first.stop({ save: true });
      const state = join(dataDir, "workspace", "state.json.gz");
      expect(statSync(state).size).toBeLessThan(64 * 1024);

      const second = await startWorkspaceEmulator({ port: 0, dataDir, latency: { enabled: false } });
      try {
        const revision = second.emulator.drive.head(second.emulator.drive.file(id) as never);
        expect(revision?.stream).toEqual({ kind: "generated", seed: "huge-file-test", size: HUGE });
        expect(revision?.md5).toBe(hugeMd5);
        const chunks: Buffer[] = [];
        for await (const chunk of second.emulator.drive.read(revision as never, 2 * GIB - 10, 2 * GIB + 9))
          chunks.push(chunk as Buffer);
        expect(Buffer.concat(chunks).equals((await range(`bytes=${2 * GIB - 10}-${2 * GIB + 9}`)).body)).toBe(
          true,
        );
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("large resumable uploads", () => {
  test("when a file larger than the spool threshold is uploaded in chunks, then its bytes go to disk as they arrive and come back intact", async () => {
    const client = harness.jwt(TEST_USER, [SCOPES.drive]);
    const size = 40 * MIB + 123;
    const payload = Buffer.alloc(size);
    for (let index = 0; index < size; index += 4096) payload.writeUInt32BE(index, index);
    const start = await client.request({
      url: `${harness.url}/upload/drive/v3/files?uploadType=resumable&fields=id,size,md5Checksum`,
      method: "POST",
      data: { name: "gross.bin" },
      headers: {
        "X-Upload-Content-Type": "application/octet-stream",
        "X-Upload-Content-Length": String(size),
      },
    });
    const location = (start.headers as unknown as Headers).get("location") as string;
    const dir = harness.emulator.drive.contentDir();
    const spooled = (): number =>
      readdirSync(dir)
        .filter((name) => name.startsWith("upload-"))
        .reduce((total, name) => total + statSync(join(dir, name)).size, 0);
    const before = spooled();
    const chunk = 8 * MIB;
    let result: { id: string; size: string; md5Checksum: string } | undefined;
    for (let offset = 0; offset < size; offset += chunk) {
      const end = Math.min(offset + chunk, size) - 1;
      const response = await client.request<{ id: string; size: string; md5Checksum: string }>({
        url: location,
        method: "PUT",
        data: payload.subarray(offset, end + 1),
        headers: { "Content-Range": `bytes ${offset}-${end}/${size}` },
        validateStatus: (status) => status === 308 || status === 200,
      });
      // Past 16 MiB the upload continues on disk: what arrived so far is in the spool file.
      if (end + 1 > 16 * MIB && end + 1 < size) expect(spooled() - before).toBe(end + 1);
      if (response.status === 200) result = response.data;
    }
    expect(result?.size).toBe(String(size));
    expect(result?.md5Checksum).toBe(createHash("md5").update(payload).digest("hex"));
    const revision = harness.emulator.drive.head(harness.emulator.drive.file(result?.id ?? "") as never);
    expect(revision?.stream?.kind).toBe("disk");
    expect(revision?.content.length).toBe(0);
    const back = await harness
      .drive(TEST_USER)
      .files.get({ fileId: result?.id ?? "", alt: "media" }, { responseType: "arraybuffer" });
    expect(Buffer.from(back.data as unknown as ArrayBuffer).equals(payload)).toBe(true);
    await harness.drive(TEST_USER).files.delete({ fileId: result?.id ?? "" });
  });
});
