/**
 * Files too large to hold: generated content (a function of seed and offset) read by Range past 2 GiB and
 * whole as a stream with flat memory, kept in a saved state as its description, and large resumable
 * uploads spooled to disk. Two generated files: a 3 GiB one that is only read in ranges and whose metadata
 * leaves its checksums out (they take seconds to compute, and nothing here asks for them, so they are never
 * computed), and a 512 MiB one that is read whole against the checksums Drive answers (the same streaming
 * code at any size, and four times the memory bound).
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { request, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SnapshotFile } from "../../../kit/src/index";
import { SCOPES, newServiceAccountKeyPair } from "../auth";
import { createWorkspaceEmulator } from "../api";
import type { EmulatorSnapshot } from "../emulator";
import { startWorkspaceEmulator, stateFile } from "../server";
import { TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";

const GIB = 1024 ** 3;
const HUGE = 3 * GIB;
const MIB = 1024 * 1024;
const WHOLE = 256 * MIB;

type Probe = { start: number; end: number };

/** Bytes of a file by Range, as Drive answers them. */
async function range(harness: Harness, fileId: string, header: string) {
  const answer = await harness
    .drive(TEST_USER)
    .files.get({ fileId, alt: "media" }, { responseType: "arraybuffer", headers: { Range: header } });
  return {
    status: answer.status,
    contentRange: (answer.headers as Record<string, string>)["content-range"],
    body: Buffer.from(answer.data as unknown as ArrayBuffer),
  };
}

/** Whether each of `seen` holds the same bytes as its answer (Buffer.equals: jest's deep equality goes byte by byte). */
function sameBytes(seen: Buffer[], answers: Buffer[]): boolean[] {
  return seen.map((bytes, index) => bytes.equals(answers[index] ?? Buffer.alloc(0)));
}

/** Reads the probes by Range, each answered 206 with its Content-Range. */
async function readProbes(
  harness: Harness,
  fileId: string,
  size: number,
  probes: Probe[],
): Promise<Buffer[]> {
  const answers: Buffer[] = [];
  for (const probe of probes) {
    const answer = await range(harness, fileId, `bytes=${probe.start}-${probe.end}`);
    expect(answer.status).toBe(206);
    expect(answer.contentRange).toBe(`bytes ${probe.start}-${probe.end}/${size}`);
    expect(answer.body.length).toBe(probe.end - probe.start + 1);
    answers.push(answer.body);
  }
  return answers;
}

/**
 * A download's answer as Node's HTTP client streams it (the emulator's streaming is what is read here;
 * the official client's stream adapters would cost more than the emulator's work).
 */
async function media(harness: Harness, fileId: string, rangeHeader?: string): Promise<IncomingMessage> {
  const { token } = await harness.jwt(TEST_USER, [SCOPES.drive]).getAccessToken();
  const headers = { authorization: `Bearer ${token ?? ""}`, ...(rangeHeader ? { range: rangeHeader } : {}) };
  return new Promise((resolve, reject) => {
    request(`${harness.url}/drive/v3/files/${fileId}?alt=media`, { headers }, resolve)
      .on("error", reject)
      .end();
  });
}

/** Streams bytes [from, to] of a file (the whole file without `from`): md5, length, the probes' bytes, peak RSS. */
async function streamOf(
  harness: Harness,
  fileId: string,
  probes: Probe[],
  from?: { start: number; end: number },
) {
  const seen = probes.map(() => [] as Buffer[]);
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const md5 = createHash("md5");
  const sha256 = createHash("sha256");
  let position = from?.start ?? 0;
  const answer = await media(harness, fileId, from ? `bytes=${from.start}-${from.end}` : undefined);
  expect(answer.statusCode).toBe(from ? 206 : 200);
  for await (const piece of answer as AsyncIterable<Buffer>) {
    const chunk = piece;
    md5.update(chunk);
    sha256.update(chunk);
    probes.forEach((probe, index) => {
      const start = Math.max(probe.start, position);
      const end = Math.min(probe.end + 1, position + chunk.length);
      if (start < end) seen[index]?.push(Buffer.from(chunk.subarray(start - position, end - position)));
    });
    position += chunk.length;
    if (position % (32 * MIB) < chunk.length) rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }
  return {
    end: position,
    md5: md5.digest("hex"),
    sha256: sha256.digest("hex"),
    probes: seen.map((pieces) => Buffer.concat(pieces)),
    grewBy: rssPeak - rssBefore,
  };
}

describe("a 3 GiB file", () => {
  let harness: Harness;
  let hugeId: string;

  beforeAll(async () => {
    // Streaming tests memory, not Google's bandwidth: no latency model, no quota.
    harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
    const owner = harness.emulator.directory.user(TEST_USER);
    hugeId = harness.emulator.drive.createFile({
      userId: owner?.id ?? "",
      name: "Firmenvideo.mp4",
      mimeType: "video/mp4",
      generated: { kind: "generated", seed: "huge-file-test", size: HUGE },
    }).id;
  });
  afterAll(() => harness.stop());

  test("when its metadata is read, then size and quota describe all 3 GiB, past 32 bits", async () => {
    const { data } = await harness
      .drive(TEST_USER)
      .files.get({ fileId: hugeId, fields: "size,quotaBytesUsed" });
    expect(data.size).toBe("3221225472");
    expect(data.quotaBytesUsed).toBe("3221225472");
  });

  test("when ranges past 2 GiB and at its end are read, then they equal the same bytes of one stream across them, and a suffix range reads the end", async () => {
    // Across 2 GiB (past 32-bit offsets) and the last bytes; each compared with a stream that reads on
    // across the offset from before it.
    const probes = [
      { start: 2 * GIB - 10, end: 2 * GIB + 9 },
      { start: 2 * GIB + 3 * MIB, end: 2 * GIB + 3 * MIB + 99 },
      { start: HUGE - 100, end: HUGE - 1 },
    ];
    const answers = await readProbes(harness, hugeId, HUGE, probes);
    const across = await streamOf(harness, hugeId, probes.slice(0, 2), {
      start: 2 * GIB - 4 * MIB,
      end: 2 * GIB + 4 * MIB,
    });
    expect(across.end).toBe(2 * GIB + 4 * MIB + 1);
    expect(sameBytes(across.probes, answers.slice(0, 2))).toEqual([true, true]);
    const tail = await streamOf(harness, hugeId, probes.slice(2), { start: HUGE - MIB, end: HUGE - 1 });
    expect(tail.end).toBe(HUGE);
    expect(sameBytes(tail.probes, answers.slice(2))).toEqual([true]);
    expect((await range(harness, hugeId, "bytes=-100")).body.equals(answers[2] as Buffer)).toBe(true);
  });

  test("when a range starts past the end, then Drive answers 416 with the size in Content-Range", async () => {
    const refused = await googleError(range(harness, hugeId, `bytes=${HUGE}-`));
    expect(refused.status).toBe(416);
    expect(refused.reason).toBe("requestedRangeNotSatisfiable");
  });

  test("when the state is saved and loaded, then the file is kept as its description and reads the same, and known checksums are kept", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "alpvault-drive-state-"));
    try {
      // A short key pair: the key is not what is tested (a 2048-bit one takes 0.1–0.5 s to make).
      const keyPair = newServiceAccountKeyPair(1024);
      const first = await startWorkspaceEmulator({
        port: 0,
        dataDir,
        profile: "empty",
        latency: { enabled: false },
        keyPair,
      });
      first.emulator.directory.addCustomer({ domain: "example-test.test", installed: true, scopes: [] });
      const owner = first.emulator.directory.addUser({
        email: TEST_USER,
        givenName: "Test",
        familyName: "User",
      });
      const clip = first.emulator.drive.createFile({
        userId: owner.id,
        name: "Kurzclip.mp4",
        mimeType: "video/mp4",
        generated: { kind: "generated", seed: "short-clip-test", size: 5 * MIB + 3 },
      });
      await first.emulator.drive.settled();
      const clipMd5 = first.emulator.drive.head(first.emulator.drive.file(clip.id) as never)?.md5;
      expect(clipMd5).toMatch(/^[0-9a-f]{32}$/);
      const { id } = first.emulator.drive.createFile({
        userId: owner.id,
        name: "Firmenvideo.mp4",
        mimeType: "video/mp4",
        generated: { kind: "generated", seed: "huge-file-test", size: HUGE },
      });
      await first.stop({ save: true });
      const state = join(dataDir, "workspace", "state.json.gz");
      expect(statSync(state).size).toBeLessThan(64 * 1024);

      // Loaded as a server start loads it (without the start's wait for checksums: the 3 GiB file's were
      // never asked for, and are computed when something first shows them).
      const saved = new SnapshotFile<EmulatorSnapshot>(stateFile(dataDir)).load();
      const second = createWorkspaceEmulator({ baseUrl: "http://127.0.0.1:1", keyPair });
      second.restore(saved as EmulatorSnapshot);
      try {
        const revision = second.drive.head(second.drive.file(id) as never);
        expect(revision?.stream).toEqual({ kind: "generated", seed: "huge-file-test", size: HUGE });
        expect(second.drive.head(second.drive.file(clip.id) as never)?.md5).toBe(clipMd5);
        const chunks: Buffer[] = [];
        for await (const chunk of second.drive.read(revision as never, 2 * GIB - 10, 2 * GIB + 9))
          chunks.push(chunk as Buffer);
        const atTwoGiB = await range(harness, hugeId, `bytes=${2 * GIB - 10}-${2 * GIB + 9}`);
        expect(Buffer.concat(chunks).equals(atTwoGiB.body)).toBe(true);
      } finally {
        second.drive.dispose();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("a 256 MiB file read whole", () => {
  let harness: Harness;
  let wholeId: string;
  let checksums: { md5Checksum: string; sha256Checksum: string };

  beforeAll(async () => {
    harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
    const created = await harness.admin<{ id: string; size: string }>(
      "POST",
      `/users/${TEST_USER}/drive/files`,
      {
        name: "Messevideo.mp4",
        mimeType: "video/mp4",
        generated: { seed: "whole-file-test", size: WHOLE },
      },
    );
    expect(created.status).toBe(200);
    expect(created.body.size).toBe(String(WHOLE));
    wholeId = created.body.id;
    const { data } = await harness.drive(TEST_USER).files.get({
      fileId: wholeId,
      fields: "md5Checksum,sha256Checksum",
    });
    checksums = { md5Checksum: data.md5Checksum ?? "", sha256Checksum: data.sha256Checksum ?? "" };
  });
  afterAll(() => harness.stop());

  test("when it is read whole as a stream, then every byte comes through, its md5 and sha256 match Drive's, ranges agree with it, and memory stays flat", async () => {
    expect(checksums.md5Checksum).toMatch(/^[0-9a-f]{32}$/);
    expect(checksums.sha256Checksum).toMatch(/^[0-9a-f]{64}$/);
    const probes = [
      { start: 0, end: MIB - 1 },
      { start: 128 * MIB - 10, end: 128 * MIB + 9 },
      { start: WHOLE - 100, end: WHOLE - 1 },
    ];
    const answers = await readProbes(harness, wholeId, WHOLE, probes);
    const whole = await streamOf(harness, wholeId, probes);
    expect(whole.end).toBe(WHOLE);
    expect(whole.md5).toBe(checksums.md5Checksum);
    expect(whole.sha256).toBe(checksums.sha256Checksum);
    expect(sameBytes(whole.probes, answers)).toEqual([true, true, true]);
    // 256 MiB passed through; the process grew by far less than that.
    expect(whole.grewBy).toBeLessThan(96 * MIB);
  });
});

describe("large resumable uploads", () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  });
  afterAll(() => harness.stop());

  test("when a file larger than the spool threshold is uploaded in chunks, then its bytes go to disk as they arrive and come back intact", async () => {
    const client = harness.jwt(TEST_USER, [SCOPES.drive]);
    const size = 24 * MIB + 123;
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
    const chunk = 4 * MIB;
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
