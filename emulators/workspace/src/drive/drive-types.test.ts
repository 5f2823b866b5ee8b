import { inflateSync } from "node:zlib";
import { TEST_DOMAIN, TEST_USER, googleError, startHarness, type Harness } from "../testing/harness";
import {
  GOOGLE_DRAWING,
  GOOGLE_FORM,
  GOOGLE_JAM,
  GOOGLE_MAP,
  GOOGLE_SCRIPT,
  GOOGLE_SHORTCUT,
  GOOGLE_SITE,
  SCRIPT_JSON,
} from "./google-types";

let harness: Harness;
let userId: string;
const OTHER = `other@${TEST_DOMAIN}`;

beforeAll(async () => {
  // Not a timing test: answers come without the latency model.
  harness = await startHarness({ latency: { enabled: false } });
  harness.emulator.directory.addUser({ email: OTHER, givenName: "Other", familyName: "Person" });
  userId = harness.emulator.directory.user(TEST_USER)?.id as string;
});
afterAll(() => harness.stop());

const create = (name: string, mimeType: string, text = ""): string =>
  harness.emulator.drive.createFile({ userId, name, mimeType, content: Buffer.from(text) }).id;

const bytes = (data: unknown): Buffer => Buffer.from(data as ArrayBuffer);

describe("Google types without any export", () => {
  test.each([
    ["a Form", GOOGLE_FORM],
    ["a Site", GOOGLE_SITE],
    ["a My Map", GOOGLE_MAP],
    ["a Jamboard", GOOGLE_JAM],
  ])(
    "when %s is read, then it has no exportLinks, files.export refuses every format and alt=media answers fileNotDownloadable",
    async (_label, mimeType) => {
      const fileId = create(`item ${mimeType}`, mimeType, "Frage 1");
      const drive = harness.drive(TEST_USER);
      const { data } = await drive.files.get({ fileId, fields: "*" });
      expect(data.mimeType).toBe(mimeType);
      expect(data.exportLinks).toBeUndefined();
      expect(data.size).toBeUndefined();
      expect(data.md5Checksum).toBeUndefined();
      for (const format of ["application/pdf", "text/plain", "application/zip"]) {
        const refused = await googleError(drive.files.export({ fileId, mimeType: format }));
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual({
          error: {
            code: 400,
            message: "The requested conversion is not supported.",
            errors: [
              {
                message: "The requested conversion is not supported.",
                domain: "global",
                reason: "badRequest",
                location: "convertTo",
                locationType: "parameter",
              },
            ],
            status: "INVALID_ARGUMENT",
          },
        });
      }
      const media = await googleError(drive.files.get({ fileId, alt: "media" }));
      expect([media.status, media.reason]).toEqual([403, "fileNotDownloadable"]);
    },
  );
});

describe("Drawings and Apps Script projects", () => {
  test("when a Drawing is exported, then PDF, SVG, PNG and JPEG come back as real files and other formats are refused", async () => {
    const fileId = create("Skizze", GOOGLE_DRAWING, "Rack A\nRack B");
    const drive = harness.drive(TEST_USER);
    const { data } = await drive.files.get({ fileId, fields: "exportLinks" });
    expect(Object.keys(data.exportLinks ?? {}).sort()).toEqual(
      ["application/pdf", "image/jpeg", "image/png", "image/svg+xml"].sort(),
    );
    const exported = async (mimeType: string): Promise<{ body: Buffer; type: string }> => {
      const answer = await drive.files.export({ fileId, mimeType }, { responseType: "arraybuffer" });
      return {
        body: bytes(answer.data),
        type: String((answer.headers as Record<string, unknown>)["content-type"]),
      };
    };
    const pdf = await exported("application/pdf");
    expect(pdf.body.subarray(0, 5).toString()).toBe("%PDF-");
    expect(pdf.body.toString("latin1")).toContain("(Rack B)");
    const svg = await exported("image/svg+xml");
    expect(svg.type).toBe("image/svg+xml");
    expect(svg.body.toString()).toMatch(/^<\?xml[^>]*\?><svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg.body.toString()).toContain(">Rack A</text>");
    const png = await exported("image/png");
    expect(png.body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const width = png.body.readUInt32BE(16);
    const height = png.body.readUInt32BE(20);
    const idatLength = png.body.readUInt32BE(33);
    expect(png.body.subarray(37, 41).toString()).toBe("IDAT");
    // The pixel data inflates to one filter byte and width × 3 bytes per row.
    expect(inflateSync(png.body.subarray(41, 41 + idatLength)).length).toBe(height * (1 + width * 3));
    const jpeg = await exported("image/jpeg");
    expect(jpeg.body.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(jpeg.body.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    expect(jpeg.body.includes(Buffer.from([0xff, 0xc0]))).toBe(true);
    const docx = await googleError(
      drive.files.export({
        fileId,
        mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      }),
    );
    expect([docx.status, docx.message]).toEqual([400, "The requested conversion is not supported."]);
    const media = await googleError(drive.files.get({ fileId, alt: "media" }));
    expect(media.reason).toBe("fileNotDownloadable");
  });

  test("when an Apps Script project is exported, then its JSON holds the script and its manifest", async () => {
    const source = "function hallo() {\n  Logger.log('Grüezi');\n}\n";
    const fileId = create("Automatisierung", GOOGLE_SCRIPT, source);
    const drive = harness.drive(TEST_USER);
    const { data } = await drive.files.get({ fileId, fields: "exportLinks" });
    expect(Object.keys(data.exportLinks ?? {})).toEqual([SCRIPT_JSON]);
    const answer = await drive.files.export(
      { fileId, mimeType: SCRIPT_JSON },
      { responseType: "arraybuffer" },
    );
    const project = JSON.parse(bytes(answer.data).toString("utf8")) as {
      files: { name: string; type: string; source: string }[];
    };
    expect(project.files.map((file) => [file.name, file.type])).toEqual([
      ["Code", "server_js"],
      ["appsscript", "json"],
    ]);
    expect(project.files[0]?.source).toBe(source);
    expect(JSON.parse(project.files[1]?.source ?? "")).toMatchObject({ runtimeVersion: "V8" });
    const pdf = await googleError(drive.files.export({ fileId, mimeType: "application/pdf" }));
    expect(pdf.status).toBe(400);
    const about = await drive.about.get({ fields: "exportFormats" });
    expect(about.data.exportFormats?.[GOOGLE_SCRIPT]).toEqual([SCRIPT_JSON]);
    expect(about.data.exportFormats?.[GOOGLE_DRAWING]).toContain("image/svg+xml");
    expect(about.data.exportFormats?.[GOOGLE_FORM]).toBeUndefined();
  });
});

describe("shortcuts", () => {
  test("when a shortcut is made with files.create, then shortcutDetails name its target, and it has no content to download or export", async () => {
    const targetId = create("Reiseplan.pdf", "application/pdf", "%PDF-1.4 plan");
    const drive = harness.drive(TEST_USER);
    const created = await drive.files.create({
      requestBody: { mimeType: GOOGLE_SHORTCUT, shortcutDetails: { targetId } },
      fields: "id,name,mimeType,shortcutDetails,size,md5Checksum",
    });
    // Without a name the shortcut takes its target's.
    expect(created.data).toEqual({
      id: created.data.id,
      name: "Reiseplan.pdf",
      mimeType: GOOGLE_SHORTCUT,
      shortcutDetails: { targetId, targetMimeType: "application/pdf" },
    });
    const shortcutId = created.data.id as string;
    const listed = await drive.files.list({
      q: `mimeType = '${GOOGLE_SHORTCUT}'`,
      fields: "files(id,shortcutDetails/targetId)",
    });
    expect(listed.data.files).toContainEqual({ id: shortcutId, shortcutDetails: { targetId } });
    const media = await googleError(drive.files.get({ fileId: shortcutId, alt: "media" }));
    expect([media.status, media.reason]).toEqual([403, "fileNotDownloadable"]);
    const exported = await googleError(
      drive.files.export({ fileId: shortcutId, mimeType: "application/pdf" }),
    );
    expect([exported.status, exported.reason]).toEqual([403, "fileNotExportable"]);
    const revisions = await googleError(drive.revisions.list({ fileId: shortcutId }));
    expect(revisions.status).toBe(403);
  });

  test("when a shortcut's target is missing, unseen or not named, then files.create refuses it", async () => {
    const drive = harness.drive(TEST_USER);
    const missing = await googleError(
      drive.files.create({ requestBody: { mimeType: GOOGLE_SHORTCUT, shortcutDetails: {} } }),
    );
    expect([missing.status, missing.reason]).toEqual([400, "required"]);
    const othersFile = harness.emulator.drive.createFile({
      userId: harness.emulator.directory.user(OTHER)?.id as string,
      name: "privat.txt",
      mimeType: "text/plain",
      content: Buffer.from("p"),
    }).id;
    const unseen = await googleError(
      drive.files.create({
        requestBody: { name: "link", mimeType: GOOGLE_SHORTCUT, shortcutDetails: { targetId: othersFile } },
      }),
    );
    expect([unseen.status, unseen.message]).toEqual([404, `File not found: ${othersFile}.`]);
  });
});
