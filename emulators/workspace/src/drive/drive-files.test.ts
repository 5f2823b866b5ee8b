import { Readable } from "node:stream";
import { SCOPES } from "../auth";
import { TEST_ADMIN, TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";
import { DOCX, GOOGLE_DOC, GOOGLE_FOLDER, GOOGLE_SHEET, GOOGLE_SLIDES, PPTX, XLSX } from "./office";
import { unzip } from "./unzip";

let harness: Harness;
let userId: string;

beforeAll(async () => {
  // Not a timing test: answers come without the latency model.
  harness = await startHarness({ latency: { enabled: false } });
  userId = harness.emulator.directory.user(TEST_USER)?.id as string;
});
afterAll(() => harness.stop());

const store = () => harness.emulator.drive;

function blob(name: string, content: string, extra: { parentId?: string; mimeType?: string } = {}): string {
  return store().createFile({
    userId,
    name,
    mimeType: extra.mimeType ?? "text/plain",
    content: Buffer.from(content),
    ...(extra.parentId ? { parentId: extra.parentId } : {}),
  }).id;
}

function bytes(data: unknown): Buffer {
  return Buffer.from(data as ArrayBuffer);
}

describe("files.list", () => {
  let folderId: string;
  beforeAll(() => {
    folderId = store().createFile({ userId, name: "Projects", mimeType: GOOGLE_FOLDER }).id;
    for (let index = 0; index < 5; index += 1)
      blob(`report-${index}.txt`, `report ${index}`, { parentId: folderId });
    store().createFile({ userId, name: "Plan", mimeType: GOOGLE_DOC, content: Buffer.from("plan text") });
  });

  test("when no fields are asked for, then Drive's default list fields come back", async () => {
    const { data } = await harness.drive(TEST_USER).files.list({ q: `'${folderId}' in parents` });
    expect(Object.keys(data).sort()).toEqual(["files", "incompleteSearch", "kind"]);
    expect(data.kind).toBe("drive#fileList");
    expect(data.files).toHaveLength(5);
    expect(Object.keys(data.files?.[0] ?? {}).sort()).toEqual(["id", "kind", "mimeType", "name"]);
  });

  test("when fields select nested values, then only those come back; fields=* gives everything", async () => {
    const drive = harness.drive(TEST_USER);
    const { data } = await drive.files.list({
      q: `'${folderId}' in parents`,
      fields: "files(id,owners/emailAddress,size)",
      pageSize: 1,
    });
    expect(data).toEqual({
      files: [{ id: expect.any(String), owners: [{ emailAddress: TEST_USER }], size: "8" }],
    });
    const everything = await drive.files.list({ q: `'${folderId}' in parents`, fields: "*", pageSize: 1 });
    expect(everything.data.files?.[0]).toMatchObject({
      md5Checksum: expect.stringMatching(/^[0-9a-f]{32}$/),
      sha256Checksum: expect.stringMatching(/^[0-9a-f]{64}$/),
      parents: [folderId],
      capabilities: expect.objectContaining({ canEdit: true }),
      version: expect.any(String),
    });
  });

  test("when a listing has more than pageSize files, then pages chain with nextPageToken", async () => {
    const drive = harness.drive(TEST_USER);
    const names: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const { data } = await drive.files.list({
        q: `'${folderId}' in parents`,
        pageSize: 2,
        orderBy: "name desc",
        pageToken,
        fields: "nextPageToken,files(name)",
      });
      names.push(...(data.files ?? []).map((file) => file.name as string));
      pageToken = data.nextPageToken ?? undefined;
      pages += 1;
    } while (pageToken);
    expect(pages).toBe(3);
    expect(names).toEqual(["report-4.txt", "report-3.txt", "report-2.txt", "report-1.txt", "report-0.txt"]);
  });

  test("when q filters by mimeType, name and trashed, then only matching files come back", async () => {
    const drive = harness.drive(TEST_USER);
    const docs = await drive.files.list({ q: `mimeType = '${GOOGLE_DOC}' and trashed = false` });
    expect(docs.data.files?.map((file) => file.name)).toEqual(["Plan"]);
    const folders = await drive.files.list({
      q: `mimeType = '${GOOGLE_FOLDER}' or name contains 'report-3'`,
    });
    expect(folders.data.files?.map((file) => file.name).sort()).toEqual(["Projects", "report-3.txt"]);
    const mine = await drive.files.list({ q: "'me' in owners and not name contains 'report'" });
    expect(mine.data.files?.map((file) => file.name).sort()).toEqual(["Plan", "Projects"]);
  });

  test("when q is invalid, then Drive answers 400 Invalid Value for q", async () => {
    const failure = await googleError(harness.drive(TEST_USER).files.list({ q: "name = " }));
    expect(failure.status).toBe(400);
    expect(failure.message).toBe("Invalid Value");
    expect(failure.body).toMatchObject({
      error: { code: 400, errors: [{ reason: "invalid", location: "q", locationType: "parameter" }] },
    });
  });

  test("when another user lists, then the first user's files are not visible", async () => {
    const { data } = await harness.drive(TEST_ADMIN).files.list({ q: `'${folderId}' in parents` });
    expect(data.files).toEqual([]);
  });
});

describe("files.get and downloads", () => {
  test("when a file is read, then its metadata has Drive's shape", async () => {
    const id = blob("notes.txt", "hello world");
    const { data } = await harness.drive(TEST_USER).files.get({ fileId: id, fields: "*" });
    expect(data).toMatchObject({
      kind: "drive#file",
      id,
      name: "notes.txt",
      mimeType: "text/plain",
      size: "11",
      md5Checksum: "5eb63bbbe01eeed093cb22bb8f5acdc3",
      headRevisionId: expect.any(String),
      owners: [{ kind: "drive#user", emailAddress: TEST_USER, me: true }],
      lastModifyingUser: { emailAddress: TEST_USER },
      trashed: false,
      permissions: [{ role: "owner", type: "user", emailAddress: TEST_USER }],
      webViewLink: `https://drive.google.com/file/d/${id}/view?usp=drivesdk`,
    });
    const plain = await harness.drive(TEST_USER).files.get({ fileId: id });
    expect(plain.data).toEqual({ kind: "drive#file", id, name: "notes.txt", mimeType: "text/plain" });
  });

  test("when a file is not visible to the caller, then files.get answers 404 File not found", async () => {
    const id = blob("private.txt", "secret");
    for (const fileId of [id, "doesNotExist"]) {
      const failure = await googleError(harness.drive(TEST_ADMIN).files.get({ fileId }));
      expect(failure.status).toBe(404);
      expect(failure.message).toBe(`File not found: ${fileId}.`);
      expect(failure.body).toMatchObject({ error: { errors: [{ reason: "notFound", location: "fileId" }] } });
    }
  });

  test("when content is downloaded with and without Range, then 200, 206 and 416 come back as Google sends them", async () => {
    const id = blob("digits.txt", "0123456789");
    const drive = harness.drive(TEST_USER);
    const full = await drive.files.get({ fileId: id, alt: "media" }, { responseType: "arraybuffer" });
    expect(full.status).toBe(200);
    expect(bytes(full.data).toString()).toBe("0123456789");
    const part = await drive.files.get(
      { fileId: id, alt: "media" },
      { responseType: "arraybuffer", headers: { Range: "bytes=2-5" } },
    );
    expect(part.status).toBe(206);
    expect(bytes(part.data).toString()).toBe("2345");
    expect(part.headers["content-range"]).toBe("bytes 2-5/10");
    const tail = await drive.files.get(
      { fileId: id, alt: "media" },
      { responseType: "arraybuffer", headers: { Range: "bytes=-3" } },
    );
    expect(bytes(tail.data).toString()).toBe("789");
    const failure = await googleError(
      drive.files.get(
        { fileId: id, alt: "media" },
        { responseType: "arraybuffer", headers: { Range: "bytes=20-" } },
      ),
    );
    expect(failure.status).toBe(416);
  });

  test("when a Google Doc is downloaded with alt=media, then Drive answers 403 fileNotDownloadable", async () => {
    const id = store().createFile({
      userId,
      name: "Doc",
      mimeType: GOOGLE_DOC,
      content: Buffer.from("x"),
    }).id;
    const failure = await googleError(harness.drive(TEST_USER).files.get({ fileId: id, alt: "media" }));
    expect(failure.status).toBe(403);
    expect(failure.reason).toBe("fileNotDownloadable");
    expect(failure.message).toBe(
      "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
    );
  });

  test("when a file is flagged as abusive, then downloading needs acknowledgeAbuse", async () => {
    const id = store().createFile({
      userId,
      name: "x.exe",
      mimeType: "application/octet-stream",
      content: Buffer.from("MZ"),
      abusive: true,
    }).id;
    const drive = harness.drive(TEST_USER);
    const failure = await googleError(drive.files.get({ fileId: id, alt: "media" }));
    expect(failure.reason).toBe("cannotDownloadAbusiveFile");
    const ok = await drive.files.get(
      { fileId: id, alt: "media", acknowledgeAbuse: true },
      { responseType: "arraybuffer" },
    );
    expect(bytes(ok.data).toString()).toBe("MZ");
  });

  test("when the token has no Drive scope, then Drive answers 403 insufficient scopes", async () => {
    const drive = harness.drive(TEST_USER, [SCOPES.gmailReadonly]);
    const failure = await googleError(drive.files.list({}));
    expect(failure.status).toBe(403);
    expect(failure.reason).toBe("insufficientPermissions");
  });
});

describe("exports", () => {
  test("when exportLinks are followed, then docx, xlsx, pptx and pdf bytes are valid packages", async () => {
    const drive = harness.drive(TEST_USER);
    const client = harness.jwt(TEST_USER, [SCOPES.drive]);
    const cases = [
      { mimeType: GOOGLE_DOC, format: DOCX, part: "word/document.xml" },
      { mimeType: GOOGLE_SHEET, format: XLSX, part: "xl/worksheets/sheet1.xml" },
      { mimeType: GOOGLE_SLIDES, format: PPTX, part: "ppt/slides/slide1.xml" },
    ];
    for (const { mimeType, format, part } of cases) {
      const id = store().createFile({
        userId,
        name: "Exported",
        mimeType,
        content: Buffer.from("Hello export"),
      }).id;
      const { data } = await drive.files.get({ fileId: id, fields: "exportLinks" });
      const link = data.exportLinks?.[format] as string;
      expect(link.startsWith(harness.url)).toBe(true);
      const response = await client.request<ArrayBuffer>({ url: link, responseType: "arraybuffer" });
      const entries = unzip(bytes(response.data));
      expect(entries.has("[Content_Types].xml")).toBe(true);
      expect(entries.get(part)?.toString()).toContain("Hello export");
      const pdfLink = data.exportLinks?.["application/pdf"] as string;
      const pdf = bytes(
        (await client.request<ArrayBuffer>({ url: pdfLink, responseType: "arraybuffer" })).data,
      );
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
      expect(pdf.toString("latin1").trimEnd().endsWith("%%EOF")).toBe(true);
    }
  });

  test("when files.export is asked for a doc above 10 MB, then Drive answers 403 exportSizeLimitExceeded", async () => {
    const drive = harness.drive(TEST_USER);
    const small = store().createFile({
      userId,
      name: "Small",
      mimeType: GOOGLE_DOC,
      content: Buffer.from("line"),
    }).id;
    const text = await drive.files.export(
      { fileId: small, mimeType: "text/plain" },
      { responseType: "arraybuffer" },
    );
    expect(bytes(text.data).toString()).toBe("\ufeffline");
    const big = store().createFile({
      userId,
      name: "Big",
      mimeType: GOOGLE_DOC,
      content: Buffer.alloc(11 * 1024 * 1024, "a"),
    }).id;
    const failure = await googleError(drive.files.export({ fileId: big, mimeType: "text/plain" }));
    expect(failure.status).toBe(403);
    expect(failure.reason).toBe("exportSizeLimitExceeded");
    expect(failure.message).toBe("This file is too large to be exported.");
    const unsupported = await googleError(drive.files.export({ fileId: small, mimeType: XLSX }));
    expect(unsupported.status).toBe(400);
  });
});

describe("uploads and updates", () => {
  test("when a file is created with multipart upload, then its content and checksums are stored", async () => {
    const drive = harness.drive(TEST_USER);
    const { data } = await drive.files.create({
      requestBody: { name: "upload.bin" },
      media: { mimeType: "application/octet-stream", body: Readable.from([Buffer.from("multipart body")]) },
      fields: "id,name,size,md5Checksum,mimeType",
    });
    expect(data).toMatchObject({ name: "upload.bin", size: "14", mimeType: "application/octet-stream" });
    const content = await drive.files.get(
      { fileId: data.id as string, alt: "media" },
      { responseType: "arraybuffer" },
    );
    expect(bytes(content.data).toString()).toBe("multipart body");
  });

  test("when a file is uploaded resumably in chunks, then 308 with Range answers each chunk and the last completes it", async () => {
    const client = harness.jwt(TEST_USER, [SCOPES.drive]);
    const payload = Buffer.alloc(600 * 1024, 7);
    const start = await client.request({
      url: `${harness.url}/upload/drive/v3/files?uploadType=resumable&fields=id,size`,
      method: "POST",
      data: { name: "resumable.bin" },
      headers: {
        "X-Upload-Content-Type": "application/octet-stream",
        "X-Upload-Content-Length": String(payload.length),
      },
    });
    const location = (start.headers as unknown as Headers).get("location") as string;
    expect(location).toContain("upload_id=");
    const chunk = 256 * 1024;
    let result: unknown;
    for (let offset = 0; offset < payload.length; offset += chunk) {
      const end = Math.min(offset + chunk, payload.length) - 1;
      const response = await client.request({
        url: location,
        method: "PUT",
        data: payload.subarray(offset, end + 1),
        headers: { "Content-Range": `bytes ${offset}-${end}/${payload.length}` },
        validateStatus: (status) => status === 308 || status === 200,
      });
      if (end + 1 < payload.length) {
        expect(response.status).toBe(308);
        expect((response.headers as unknown as Headers).get("range")).toBe(`bytes=0-${end}`);
      } else {
        expect(response.status).toBe(200);
        result = response.data;
      }
    }
    expect(result).toEqual({ id: expect.any(String), size: String(payload.length) });
    const file = store().file((result as { id: string }).id);
    expect(file?.revisions.at(-1)?.content.equals(payload)).toBe(true);
  });

  test("when content is replaced, then a new head revision is made and the old one stays", async () => {
    const drive = harness.drive(TEST_USER);
    const id = blob("versioned.txt", "one");
    const before = await drive.files.get({ fileId: id, fields: "headRevisionId,version" });
    const { data } = await drive.files.update({
      fileId: id,
      media: { mimeType: "text/plain", body: "two!" },
      fields: "headRevisionId,size,version",
    });
    expect(data.size).toBe("4");
    expect(data.headRevisionId).not.toBe(before.data.headRevisionId);
    expect(Number(data.version)).toBeGreaterThan(Number(before.data.version));
    const revisions = await drive.revisions.list({
      fileId: id,
      fields: "revisions(id,size,md5Checksum,keepForever)",
    });
    expect(revisions.data.revisions?.map((revision) => revision.size)).toEqual(["3", "4"]);
    const first = revisions.data.revisions?.[0]?.id as string;
    const old = await drive.revisions.get(
      { fileId: id, revisionId: first, alt: "media" },
      { responseType: "arraybuffer" },
    );
    expect(bytes(old.data).toString()).toBe("one");
    const kept = await drive.revisions.update({
      fileId: id,
      revisionId: first,
      requestBody: { keepForever: true },
      fields: "keepForever",
    });
    expect(kept.data.keepForever).toBe(true);
    const missing = await googleError(drive.revisions.get({ fileId: id, revisionId: "nope" }));
    expect(missing.status).toBe(404);
    expect(missing.message).toBe("Revision not found: nope.");
  });

  test("when folders are made and files moved, renamed, trashed and deleted, then metadata follows", async () => {
    const drive = harness.drive(TEST_USER);
    const folder = await drive.files.create({
      requestBody: { name: "Archive", mimeType: GOOGLE_FOLDER },
      fields: "id,mimeType",
    });
    expect(folder.data.mimeType).toBe(GOOGLE_FOLDER);
    const root = await drive.files.get({ fileId: "root", fields: "id,name" });
    expect(root.data.name).toBe("My Drive");
    const id = blob("move-me.txt", "m");
    const moved = await drive.files.update({
      fileId: id,
      addParents: folder.data.id as string,
      removeParents: root.data.id as string,
      requestBody: { name: "moved.txt" },
      fields: "name,parents",
    });
    expect(moved.data).toEqual({ name: "moved.txt", parents: [folder.data.id] });
    const trashed = await drive.files.update({
      fileId: folder.data.id as string,
      requestBody: { trashed: true },
      fields: "trashed",
    });
    expect(trashed.data.trashed).toBe(true);
    const child = await drive.files.get({ fileId: id, fields: "trashed,explicitlyTrashed" });
    expect(child.data).toEqual({ trashed: true, explicitlyTrashed: false });
    const listed = await drive.files.list({ q: "trashed = true and name = 'moved.txt'" });
    expect(listed.data.files).toHaveLength(1);
    const deleted = await drive.files.delete({ fileId: folder.data.id as string });
    expect(deleted.status).toBe(204);
    expect((await googleError(drive.files.get({ fileId: id }))).status).toBe(404);
  });

  test("when a reader tries to change a file, then Drive answers 403 insufficientFilePermissions", async () => {
    const id = blob("shared-read.txt", "r");
    store().addPermission(id, { type: "user", role: "reader", emailAddress: TEST_ADMIN });
    const failure = await googleError(
      harness.drive(TEST_ADMIN).files.update({ fileId: id, requestBody: { name: "x" } }),
    );
    expect(failure.status).toBe(403);
    expect(failure.reason).toBe("insufficientFilePermissions");
  });
});

describe("about", () => {
  const quota = async () => {
    const { data } = await harness.drive(TEST_USER).about.get({ fields: "storageQuota" });
    return {
      usage: Number(data.storageQuota?.usageInDrive),
      trash: Number(data.storageQuota?.usageInDriveTrash),
    };
  };

  test("when the user's files use quota, then usageInDrive is the sum of their quotaBytesUsed, trash included", async () => {
    const before = await quota();
    const trashed = blob("old.bin", "x".repeat(1_000));
    store().setTrashed(trashed, true, userId);
    blob("new.bin", "y".repeat(250));
    store().createFile({
      userId,
      name: "Notes",
      mimeType: GOOGLE_DOC,
      content: Buffer.from("a Google file"),
    });
    const after = await quota();
    // Google files use none of the user's storage quota; a trashed file still does, and is the trash's part.
    expect(after).toEqual({ usage: before.usage + 1_250, trash: before.trash + 1_000 });
    const listed = await harness.drive(TEST_USER).files.list({
      q: "'me' in owners",
      fields: "files(quotaBytesUsed)",
      pageSize: 1000,
    });
    const sum = (listed.data.files ?? []).reduce((total, file) => total + Number(file.quotaBytesUsed), 0);
    expect(after.usage).toBe(sum);
  });

  test("when about.get is asked without fields, then Drive answers 400 required", async () => {
    const failure = await googleError(harness.drive(TEST_USER).about.get({}));
    expect(failure).toMatchObject({ status: 400, reason: "required" });
  });
});
