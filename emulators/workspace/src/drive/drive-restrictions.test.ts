import { TEST_DOMAIN, TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";
import { GOOGLE_DOC } from "./office";

let harness: Harness;
const READER = `reader@${TEST_DOMAIN}`;
const WRITER = `writer@${TEST_DOMAIN}`;

beforeAll(async () => {
  // Not a timing test: answers come without the latency model.
  harness = await startHarness({ latency: { enabled: false } });
  for (const email of [READER, WRITER])
    harness.emulator.directory.addUser({ email, givenName: email.split("@")[0] ?? "", familyName: "Test" });
});
afterAll(() => harness.stop());

/** A file of TEST_USER shared with READER (reader) and WRITER (writer), with the given restrictions. */
async function sharedFile(restrictions: Record<string, unknown>, mimeType = "text/plain"): Promise<string> {
  const created = await harness.admin<{ id: string }>("POST", `/users/${TEST_USER}/drive/files`, {
    name: `restricted ${JSON.stringify(restrictions)}`,
    mimeType,
    text: "Lohnliste",
    ...restrictions,
  });
  expect(created.status).toBe(200);
  for (const [email, role] of [
    [READER, "reader"],
    [WRITER, "writer"],
  ]) {
    await harness.admin("POST", `/drive/files/${created.body.id}/permissions`, {
      type: "user",
      role,
      emailAddress: email,
    });
  }
  return created.body.id;
}

const download = (email: string, fileId: string) =>
  harness.drive(email).files.get({ fileId, alt: "media" }, { responseType: "arraybuffer" });

function googleBody(code: number, reason: string, message: string): unknown {
  const status = code === 403 ? "PERMISSION_DENIED" : "INVALID_ARGUMENT";
  return { error: { code, message, errors: [{ message, domain: "global", reason }], status } };
}

describe("download restrictions", () => {
  test("when a file requires writer permission to copy, then a reader's download answers 403 cannotDownloadFile and a writer's succeeds", async () => {
    const fileId = await sharedFile({ copyRequiresWriterPermission: true });
    const refused = await googleError(download(READER, fileId));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(
      googleBody(403, "cannotDownloadFile", "This file cannot be downloaded by the user."),
    );
    const seen = await harness.drive(READER).files.get({
      fileId,
      fields: "copyRequiresWriterPermission,viewersCanCopyContent,capabilities(canDownload,canCopy)",
    });
    expect(seen.data).toEqual({
      copyRequiresWriterPermission: true,
      viewersCanCopyContent: false,
      capabilities: { canDownload: false, canCopy: false },
    });
    expect(Buffer.from((await download(WRITER, fileId)).data as unknown as ArrayBuffer).toString()).toBe(
      "Lohnliste",
    );
    const revision = await googleError(
      harness.drive(READER).revisions.get({ fileId, revisionId: "head", alt: "media" }),
    );
    // Readers cannot read revisions at all; writers can, and may download them.
    expect(revision.status).toBe(403);
    expect(
      (await harness.drive(WRITER).revisions.get({ fileId, revisionId: "head", alt: "media" })).status,
    ).toBe(200);
  });

  test("when a Doc's downloads are restricted for readers, then a reader's export answers 403 cannotExportFile", async () => {
    const fileId = await sharedFile(
      { downloadRestrictions: { restrictedForReaders: true, restrictedForWriters: false } },
      GOOGLE_DOC,
    );
    const refused = await googleError(harness.drive(READER).files.export({ fileId, mimeType: "text/plain" }));
    expect(refused.body).toEqual(
      googleBody(403, "cannotExportFile", "This file cannot be exported by the user."),
    );
    const exported = await harness
      .drive(WRITER)
      .files.export({ fileId, mimeType: "text/plain" }, { responseType: "arraybuffer" });
    expect(Buffer.from(exported.data as unknown as ArrayBuffer).toString("utf8")).toContain("Lohnliste");
    const { data } = await harness.drive(READER).files.get({ fileId, fields: "downloadRestrictions" });
    expect(data.downloadRestrictions).toEqual({
      itemDownloadRestriction: { restrictedForReaders: true, restrictedForWriters: false },
      effectiveDownloadRestrictionWithContext: { restrictedForReaders: true, restrictedForWriters: false },
    });
  });

  test("when downloads are restricted for writers, then writers and readers are refused and the owner is not", async () => {
    const fileId = await sharedFile({
      downloadRestrictions: { restrictedForReaders: false, restrictedForWriters: true },
    });
    expect((await googleError(download(WRITER, fileId))).reason).toBe("cannotDownloadFile");
    expect((await googleError(download(READER, fileId))).reason).toBe("cannotDownloadFile");
    expect((await download(TEST_USER, fileId)).status).toBe(200);
    const lifted = await harness.admin("PATCH", `/drive/files/${fileId}`, {
      downloadRestrictions: { restrictedForReaders: false, restrictedForWriters: false },
    });
    expect(lifted.status).toBe(200);
    expect((await download(READER, fileId)).status).toBe(200);
  });
});

describe("download quota", () => {
  test("when a file's download quota is used up, then alt=media answers 403 downloadQuotaExceeded and its metadata still answers", async () => {
    const fileId = await sharedFile({ downloadsLeft: 2 });
    expect((await download(READER, fileId)).status).toBe(200);
    expect((await download(WRITER, fileId)).status).toBe(200);
    const refused = await googleError(download(TEST_USER, fileId));
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(
      googleBody(403, "downloadQuotaExceeded", "The download quota for this file has been exceeded."),
    );
    const revision = await googleError(
      harness.drive(TEST_USER).revisions.get({ fileId, revisionId: "head", alt: "media" }),
    );
    expect(revision.reason).toBe("downloadQuotaExceeded");
    expect((await harness.drive(TEST_USER).files.get({ fileId, fields: "id" })).data).toEqual({ id: fileId });
    await harness.admin("PATCH", `/drive/files/${fileId}`, { downloadsLeft: null });
    expect((await download(TEST_USER, fileId)).status).toBe(200);
  });
});

describe("domain policy", () => {
  test("when a domain's administrators turn Drive apps off, then every Drive call of its users answers 403 domainPolicy", async () => {
    const off = await harness.admin("PATCH", `/drive/domains/${TEST_DOMAIN}`, { driveAppsDisabled: true });
    expect(off.status).toBe(200);
    const drive = harness.drive(READER);
    for (const call of [
      drive.files.list({}),
      drive.about.get({ fields: "user" }),
      drive.changes.getStartPageToken({}),
      drive.drives.list({}),
    ]) {
      const refused = await googleError(call);
      expect(refused.body).toEqual(
        googleBody(403, "domainPolicy", "The domain administrators have disabled Drive apps."),
      );
    }
    await harness.admin("PATCH", `/drive/domains/${TEST_DOMAIN}`, { driveAppsDisabled: false });
    expect((await drive.files.list({})).status).toBe(200);
  });
});
