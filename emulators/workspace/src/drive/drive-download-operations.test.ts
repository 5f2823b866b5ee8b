/**
 * `files.download` as a long-running operation through the official client: a Google Vid comes back as an
 * MP4 once the operation is done on the emulator's clock, and what Google cannot download is refused.
 */
import { ManualClock } from "../../../kit/src/index";
import type { MethodStats, QuotaStats } from "../quota-models";
import { TEST_DOMAIN, TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";
import { GOOGLE_FORM, GOOGLE_VID, VID_MP4 } from "./google-types";
import { DOWNLOAD_READY_MS, OPERATION_LIFETIME_MS } from "./operations";

const clock = new ManualClock();
let harness: Harness;
let userId: string;
const OTHER = `other@${TEST_DOMAIN}`;

beforeAll(async () => {
  // Not a timing test of answers: the latency model is off; the clock only moves the operations on.
  harness = await startHarness({ latency: { enabled: false }, clock });
  harness.emulator.directory.addUser({ email: OTHER, givenName: "Other", familyName: "Person" });
  userId = harness.emulator.directory.user(TEST_USER)?.id as string;
});
afterAll(() => harness.stop());

const create = (name: string, mimeType: string, text = ""): string =>
  harness.emulator.drive.createFile({ userId, name, mimeType, content: Buffer.from(text) }).id;

interface Box {
  type: string;
  children: Box[];
  body: Buffer;
}

const CONTAINERS = new Set(["moov", "trak", "mdia", "minf", "dinf", "stbl", "udta"]);

/** The ISO BMFF boxes of `data` (ISO/IEC 14496-12): throws unless the sizes tile the bytes exactly. */
function boxes(data: Buffer): Box[] {
  const out: Box[] = [];
  for (let offset = 0; offset < data.length;) {
    if (data.length - offset < 8) throw new Error(`truncated box header at ${offset}`);
    const size = data.readUInt32BE(offset);
    const type = data.subarray(offset + 4, offset + 8).toString("latin1");
    if (size < 8 || offset + size > data.length) throw new Error(`bad size of ${type} at ${offset}`);
    const body = data.subarray(offset + 8, offset + size);
    out.push({ type, body, children: CONTAINERS.has(type) ? boxes(body) : [] });
    offset += size;
  }
  return out;
}

const find = (list: Box[], ...path: string[]): Box | undefined => {
  const [first, ...rest] = path;
  const found = list.find((entry) => entry.type === first);
  return found && rest.length > 0 ? find(found.children, ...rest) : found;
};

test("when a Vid is downloaded, then the operation is not done at first, is done once the clock moved, and its downloadUri serves a valid MP4 with the user's token", async () => {
  const fileId = create("Quartalsrückblick", GOOGLE_VID, "Szene 1: Begrüssung");
  const drive = harness.drive(TEST_USER);
  await harness.admin("POST", "/stats:reset");

  const started = await drive.files.download({ fileId, mimeType: VID_MP4 });
  expect(started.data.done).toBeUndefined();
  expect(started.data.response).toBeUndefined();
  const name = started.data.name as string;
  expect(name).toMatch(/^[\w-]+$/);
  const early = await drive.operations.get({ name });
  expect(early.data).toEqual({ name, metadata: started.data.metadata });

  await clock.advance(DOWNLOAD_READY_MS);
  const { data } = await drive.operations.get({ name });
  expect(data.done).toBe(true);
  expect(data.response).toMatchObject({
    "@type": "type.googleapis.com/google.apps.drive.v3.DownloadFileResponse",
    partialDownloadAllowed: true,
  });
  const uri = String(data.response?.downloadUri);

  const token = (await harness.jwt(TEST_USER, ["https://www.googleapis.com/auth/drive"]).getAccessToken())
    .token;
  expect((await fetch(uri)).status).toBe(401);
  const answer = await fetch(uri, { headers: { authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  expect(answer.headers.get("content-type")).toBe(VID_MP4);
  const mp4 = Buffer.from(await answer.arrayBuffer());
  const tree = boxes(mp4);
  expect(tree[0]?.type).toBe("ftyp");
  expect(tree[0]?.body.subarray(0, 4).toString("latin1")).toBe("isom");
  for (const path of [
    ["moov", "mvhd"],
    ["moov", "trak", "tkhd"],
    ["moov", "trak", "mdia", "hdlr"],
  ]) {
    expect(find(tree, ...path)).toBeDefined();
  }
  expect(find(tree, "moov", "trak", "mdia", "hdlr")?.body.subarray(8, 12).toString("latin1")).toBe("vide");
  expect(mp4.toString("utf8")).toContain("Szene 1: Begrüssung");

  // Both API methods are charged as Drive calls: a download and a read.
  const { body } = await harness.admin<QuotaStats>("GET", "/stats");
  const stats = body.users[TEST_USER] ?? {};
  expect((stats["drive.files.download"] as MethodStats).units).toBe(200);
  expect((stats["drive.operations.get"] as MethodStats).units).toBe(10);

  // Someone else's token does not see the operation.
  const other = await googleError(harness.drive(OTHER).operations.get({ name }));
  expect(other.status).toBe(404);
});

test("when the operation name is unknown or the operation is older than 24 hours, then operations.get answers 404", async () => {
  const drive = harness.drive(TEST_USER);
  const unknown = await googleError(drive.operations.get({ name: "download-unknown" }));
  expect(unknown.status).toBe(404);
  expect(unknown.body).toMatchObject({ error: { code: 404, status: "NOT_FOUND" } });

  const fileId = create("Onboarding", GOOGLE_VID, "Willkommen");
  const { data } = await drive.files.download({ fileId });
  await clock.advance(OPERATION_LIFETIME_MS);
  const expired = await googleError(drive.operations.get({ name: data.name as string }));
  expect(expired.status).toBe(404);
});

test("when a Vid is asked for in another format, or a Form, a folder or a blob with a mimeType is downloaded, then Drive refuses as Google does", async () => {
  const drive = harness.drive(TEST_USER);
  const vid = create("Teaser", GOOGLE_VID, "Teaser");
  const pdf = await googleError(drive.files.download({ fileId: vid, mimeType: "application/pdf" }));
  expect([pdf.status, pdf.message]).toEqual([400, "The requested conversion is not supported."]);
  const revision = await googleError(drive.files.download({ fileId: vid, revisionId: "1" }));
  expect([revision.status, (revision.body as { error: { status: string } }).error.status]).toEqual([
    400,
    "INVALID_ARGUMENT",
  ]);
  const form = await googleError(drive.files.download({ fileId: create("Umfrage", GOOGLE_FORM) }));
  expect(form.status).toBe(400);
  const folder = await googleError(
    drive.files.download({ fileId: create("Ordner", "application/vnd.google-apps.folder") }),
  );
  expect([folder.status, folder.reason]).toEqual([403, "fileNotDownloadable"]);
  const blob = create("notes.txt", "text/plain", "hello");
  const typed = await googleError(drive.files.download({ fileId: blob, mimeType: "application/pdf" }));
  expect([typed.status, typed.reason]).toEqual([400, "invalid"]);
  // The only ways Drive offers a Vid's content elsewhere are none: no exportLinks, export and alt=media refuse.
  const { data } = await drive.files.get({ fileId: vid, fields: "exportLinks" });
  expect(data.exportLinks).toBeUndefined();
  expect((await googleError(drive.files.export({ fileId: vid, mimeType: VID_MP4 }))).status).toBe(400);
  expect((await googleError(drive.files.get({ fileId: vid, alt: "media" }))).reason).toBe(
    "fileNotDownloadable",
  );
});

test("when a blob file is downloaded through an operation, then its downloadUri serves the file's bytes", async () => {
  const drive = harness.drive(TEST_USER);
  const fileId = create("report.txt", "text/plain", "Bericht 2026");
  const { data } = await drive.files.download({ fileId });
  await clock.advance(DOWNLOAD_READY_MS);
  const done = await drive.operations.get({ name: data.name as string });
  const token = (await harness.jwt(TEST_USER, ["https://www.googleapis.com/auth/drive"]).getAccessToken())
    .token;
  const answer = await fetch(String(done.data.response?.downloadUri), {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(await answer.text()).toBe("Bericht 2026");
});
