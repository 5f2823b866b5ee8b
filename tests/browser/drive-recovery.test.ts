/**
 * Recovering a deleted Drive folder's files to another user from the web app (docs/requirements.md#screens-and-navigation recovery modal, #validation,
 * docs/requirements.md#errors-and-messages) with the demo organisation. Jürg Känzig (no other browser file uses him) gets a folder "Q3-Reports"
 * in his My Drive with a binary file, a text file and a Google Doc, made with the official Drive client in
 * the Workspace emulator; he gets the default policy straight in Firestore and "Backup now" backs him up for
 * real. The folder is then deleted in Drive (its files with it) and "Backup now" again marks the files
 * deleted at the source. Search Backups finds them on the Drive tab with the deleted mark; Recover sends
 * them through the recovery modal to Mengia Pult (another resource) in a separate folder, without sharing:
 * the snackbar says the recovery started and its progress ends with 3 items restored. Mengia's My Drive
 * then has "Recovered-files/Q3-Reports" with the three files, each once, byte for byte (the Doc by its
 * exported text), and Jürg's has none of them.
 *
 * Afterwards Jürg's resource fields, runs, catalog items, alerts, audit entries, the recoveries and their
 * locks (his and Mengia's), and the organisation's item counts are put back, and what the file made in
 * both My Drives is deleted.
 */
import { Readable } from "node:stream";
import type { drive_v3 } from "@googleapis/drive";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { RECOVERY_MESSAGES } from "@alpvault/contracts/recovery";
import { SCOPES } from "../../emulators/workspace/src/index";
import { DEMO_DOMAIN, driveFor } from "../support/workspace";
import { closeDemoPage, signedInDemoPage } from "./support/demo-page";
import { onboardDemoOrganization, pathnameOf, screenshotBothThemes } from "./support/onboarding";
import {
  backUpNow,
  dialogSettled,
  protectDemoResource,
  recoveryDialog,
  recoveryEnded,
  recoveryProgress,
  resourceIdOf,
  screenshotModalBothThemes,
  type DemoResource,
} from "./support/recovery-flow";
import { expectSnackbar } from "./support/snackbar";

jest.setTimeout(240_000);

/** Whose files are deleted and recovered, and who receives them: no other browser file uses them. */
const SOURCE = { name: "Jürg Känzig", email: `juerg.kaenzig@${DEMO_DOMAIN}` };
const TARGET = { name: "Mengia Pult", email: `mengia.pult@${DEMO_DOMAIN}` };
const FOLDER = "Q3-Reports";
const RECOVERY_FOLDER = "Recovered-files";
/** A word of the files' names that nothing else in the demo Drives has: the search finds them alone. */
const KEYWORD = "kestrel";
const GOOGLE_FOLDER = "application/vnd.google-apps.folder";
const GOOGLE_DOC = "application/vnd.google-apps.document";

/** The folder's files as the source has them (content: the bytes, or a Doc's text as Drive exports it). */
interface SourceFile {
  name: string;
  mimeType: string;
  /** What is uploaded (a Doc: text Drive converts). */
  upload: { mimeType: string; bytes: Buffer };
  id?: string;
  /** The bytes downloaded, or a Doc's exported text, before the folder is deleted. */
  content?: Buffer;
}

const FILES: SourceFile[] = [
  {
    name: "Kestrel figures.bin",
    mimeType: "application/octet-stream",
    // Every byte value, twice over in a scrambled order, and past 64 KiB.
    upload: {
      mimeType: "application/octet-stream",
      bytes: Buffer.from(Array.from({ length: 70_000 }, (_, index) => (index * 7919 + 13) % 256)),
    },
  },
  {
    name: "Kestrel notes.txt",
    mimeType: "text/plain",
    upload: {
      mimeType: "text/plain",
      bytes: Buffer.from("Q3 notes — Umsatz +4 %, marge stable, Zürich & Lausanne\n".repeat(40), "utf8"),
    },
  },
  {
    name: "Kestrel summary",
    mimeType: GOOGLE_DOC,
    upload: {
      mimeType: "text/plain",
      bytes: Buffer.from("Q3 summary\nThe quarter closed above plan in every region.", "utf8"),
    },
  },
];

let browser: Browser;
let context: BrowserContext;
let page: Page;
let errors: string[];
let source: DemoResource | undefined;
let targetResourceId: string;
let folderId: string;

/** The official Drive client as a user of the demo domain. */
const driveOf = (email: string): drive_v3.Drive => driveFor(email, [SCOPES.drive]);

const quoted = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** The files (not trashed) in a folder ("root": the top of My Drive), those named `name` if given. */
async function filesIn(email: string, parent: string, name?: string): Promise<drive_v3.Schema$File[]> {
  const { data } = await driveOf(email).files.list({
    q: `${quoted(parent)} in parents and trashed = false${name === undefined ? "" : ` and name = ${quoted(name)}`}`,
    fields: "files(id,name,mimeType)",
    pageSize: 100,
  });
  return data.files ?? [];
}

/** A file's content: its bytes, or a Google Doc's text as Drive exports it. */
async function contentOf(email: string, file: { id: string; mimeType: string }): Promise<Buffer> {
  const drive = driveOf(email);
  const { data } =
    file.mimeType === GOOGLE_DOC
      ? await drive.files.export({ fileId: file.id, mimeType: "text/plain" }, { responseType: "arraybuffer" })
      : await drive.files.get({ fileId: file.id, alt: "media" }, { responseType: "arraybuffer" });
  return Buffer.from(data as ArrayBuffer);
}

/** Deletes, for good, the folders this file makes at the top of both My Drives (their files go with them). */
async function deleteOurFolders(): Promise<void> {
  for (const [email, name] of [
    [SOURCE.email, FOLDER],
    [SOURCE.email, RECOVERY_FOLDER],
    [TARGET.email, RECOVERY_FOLDER],
  ] as const) {
    for (const folder of await filesIn(email, "root", name)) {
      await driveOf(email).files.delete({ fileId: folder.id! });
    }
  }
}

/** The source's catalog items of the folder's files, by Drive file id. */
async function catalogued(): Promise<Map<string, { deletedAtSource: string | null; path: unknown }>> {
  return source!.db(async (_, ref) => {
    const items = await ref
      .collection("resources")
      .doc(source!.resourceId)
      .collection("items")
      .where("kind", "==", "drive-file")
      .get();
    const ids = new Set(FILES.map((file) => file.id));
    return new Map(
      items.docs
        .filter((doc) => ids.has(String(doc.get("sourceId"))))
        .map((doc) => [
          String(doc.get("sourceId")),
          {
            deletedAtSource: (doc.get("deletedAtSource") as string | null) ?? null,
            path: doc.get("current.metadata.path") as unknown,
          },
        ]),
    );
  });
}

beforeAll(async () => {
  const organization = await onboardDemoOrganization();
  targetResourceId = await resourceIdOf(organization, TARGET.email);
  source = await protectDemoResource(organization, SOURCE.email, { lockTargets: [targetResourceId] });
  // What an earlier run that stopped half-way left in the Drives.
  await deleteOurFolders();
  ({ browser, context, page, errors } = await signedInDemoPage());
});

afterAll(() =>
  closeDemoPage(
    { browser, context },
    source
      ? async () => {
          await source?.restore();
          await deleteOurFolders();
        }
      : undefined,
  ),
);

const dialog = () => recoveryDialog(page);
const searchRecover = () => page.getByTestId("search-screen").getByRole("button", { name: "Recover" });
const rows = () => page.getByTestId("search-result");

/** Fills the open modal in: Mengia's Drive, a separate folder, without sharing. */
async function fillInRecovery(): Promise<void> {
  await dialog().getByRole("radio", { name: "Another resource" }).check();
  await dialog().getByLabel("Resource to recover to").click();
  await page
    .getByRole("listbox")
    .getByRole("option", { name: `${TARGET.name} (${TARGET.email})` })
    .click();
  await dialog().getByRole("radio", { name: "Separate folder" }).check();
  await dialog().getByLabel("Folder name").fill(RECOVERY_FOLDER);
  await page.mouse.move(0, 0);
}

describe("recovering a deleted Drive folder to another user from the web app", () => {
  it("when a folder of files is made in the user's My Drive and Backup now is chosen, then its files are backed up with their folder path", async () => {
    const drive = driveOf(SOURCE.email);
    const folder = await drive.files.create({
      requestBody: { name: FOLDER, mimeType: GOOGLE_FOLDER, parents: ["root"] },
      fields: "id",
    });
    folderId = folder.data.id!;
    for (const file of FILES) {
      const created = await drive.files.create({
        requestBody: { name: file.name, mimeType: file.mimeType, parents: [folderId] },
        media: { mimeType: file.upload.mimeType, body: Readable.from([file.upload.bytes]) },
        fields: "id,mimeType",
      });
      expect(created.data.mimeType).toBe(file.mimeType);
      file.id = created.data.id!;
      file.content = await contentOf(SOURCE.email, { id: file.id, mimeType: file.mimeType });
    }
    // Three different contents, the binary and the text as uploaded, the Doc with its text.
    expect(FILES[0]!.content!.equals(FILES[0]!.upload.bytes)).toBe(true);
    expect(FILES[1]!.content!.equals(FILES[1]!.upload.bytes)).toBe(true);
    expect(FILES[2]!.content!.toString("utf8")).toContain("The quarter closed above plan");
    expect((await filesIn(SOURCE.email, folderId)).map((file) => file.name).sort()).toEqual(
      FILES.map((file) => file.name).sort(),
    );

    const stored = await backUpNow(page, source!, SOURCE.name);
    expect(stored.lastRun).toMatchObject({ state: "succeeded" });
    expect(Number(stored.driveItems)).toBeGreaterThanOrEqual(FILES.length);
    const items = await catalogued();
    expect([...items.keys()].sort()).toEqual(FILES.map((file) => file.id).sort());
    for (const item of items.values()) {
      expect(item).toEqual({ deletedAtSource: null, path: `My Drive/${FOLDER}` });
    }
  });

  it("when the folder is deleted in Drive and Backup now runs again, then its files are gone from Drive and marked deleted at the source", async () => {
    await driveOf(SOURCE.email).files.delete({ fileId: folderId });
    // Drive deletes a folder's contents with it.
    for (const file of FILES) {
      const found = driveOf(SOURCE.email).files.get({ fileId: file.id!, fields: "id" });
      await expect(found).rejects.toMatchObject({ status: 404 });
    }
    expect(await filesIn(SOURCE.email, "root", FOLDER)).toEqual([]);

    const stored = await backUpNow(page, source!, SOURCE.name);
    expect(stored.lastRun).toMatchObject({ state: "succeeded" });
    const items = await catalogued();
    expect(items.size).toBe(FILES.length);
    for (const item of items.values()) expect(item.deletedAtSource).toEqual(expect.any(String));
  });

  it("when the files are found on Search Backups' Drive tab and recovered to another user in a separate folder, then the snackbar says so and the progress ends with 3 items restored", async () => {
    await page.goto(new URL(`/search/${encodeURIComponent(source!.resourceId)}`, page.url()).toString());
    await page.getByTestId("search-total").waitFor();
    expect(pathnameOf(page)).toBe(`/search/${encodeURIComponent(source!.resourceId)}`);
    await page.getByRole("tab", { name: "Drive" }).click();
    await page.getByRole("tab", { name: "Drive", selected: true }).waitFor();
    expect(await page.getByLabel("Resource name or email").inputValue()).toBe(SOURCE.email);
    await page.getByLabel("Keyword").fill(KEYWORD);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await page.getByText("3 results", { exact: true }).waitFor();
    await rows().nth(2).waitFor();
    expect(await rows().count()).toBe(FILES.length);
    for (const file of FILES) {
      const row = rows().filter({ hasText: file.name });
      expect(await row.count()).toBe(1);
      // Its folder path, and the mark of a file gone from Drive.
      expect(await row.locator("td:nth-child(2)").innerText()).toContain(FOLDER);
      expect(await row.getByTestId("deleted-at-source").count()).toBe(1);
      expect(await row.locator("td").nth(6).innerText()).toBe(file.id);
    }
    expect(await searchRecover().isDisabled()).toBe(true);
    for (const file of FILES) await page.getByRole("checkbox", { name: `Select ${file.name}` }).check();
    await page.getByText("3 selected", { exact: true }).waitFor();

    await searchRecover().click();
    await dialogSettled(page);
    expect(await dialog().getByTestId("recovery-subject").innerText()).toMatch(
      new RegExp(`^From ${SOURCE.name} \\(${SOURCE.email}\\)\\s+3 selected items$`),
    );
    // Recovering found files: Drive is the tab's service, no choice; sharing can come back, off by default.
    expect(await dialog().getByRole("radio", { name: "Drive" }).count()).toBe(0);
    const permissions = dialog().getByRole("checkbox", { name: "Recover sharing permissions" });
    expect(await permissions.isChecked()).toBe(false);
    // The picker offers the organisation's other users and its shared drives, not the source.
    await dialog().getByRole("radio", { name: "Another resource" }).check();
    await dialog().getByLabel("Resource to recover to").click();
    await page.getByRole("listbox").getByRole("option").first().waitFor();
    const options = await page.getByRole("listbox").getByRole("option").allInnerTexts();
    expect(options).toContain(`${TARGET.name} (${TARGET.email})`);
    expect(options.some((option) => option.includes(SOURCE.email))).toBe(false);
    await page.keyboard.press("Escape");
    await fillInRecovery();
    expect(await dialog().getByLabel("Resource to recover to").inputValue()).toBe(
      `${TARGET.name} (${TARGET.email})`,
    );
    expect(await dialog().getByRole("radio", { name: "Separate folder" }).isChecked()).toBe(true);
    expect(await permissions.isChecked()).toBe(false);
    await screenshotModalBothThemes(
      page,
      async () => {
        await searchRecover().click();
        await dialogSettled(page);
        await fillInRecovery();
      },
      "drive-recovery-modal",
    );
    expect(await source!.recoveriesSoFar()).toBe(0);

    await dialog().getByRole("button", { name: "Recover", exact: true }).click();
    await expectSnackbar(page, RECOVERY_MESSAGES.started, false);
    // The dialog closes (its exit may still run while the snackbar shows).
    await dialog().waitFor({ state: "detached" });
    expect(await recoveryEnded(page)).toEqual({
      state: "succeeded",
      text: "Recovery finished: 3 items restored",
    });
    // The card names where the files went.
    expect(await recoveryProgress(page).innerText()).toContain(
      `Recovery of ${SOURCE.name} (${SOURCE.email}) to ${TARGET.name} (${TARGET.email})`,
    );
    await page.mouse.move(0, 0);
    await screenshotBothThemes(page, "drive-recovery-finished");

    const recoveries = await source!.db(async (_, ref) =>
      (await ref.collection("recoveries").where("resourceId", "==", source!.resourceId).get()).docs
        .filter((doc) => String(doc.get("requestedAt")) >= source!.startedAt)
        .map((doc) => doc.data()),
    );
    expect(recoveries).toEqual([
      expect.objectContaining({
        service: "drive",
        targetResourceId,
        method: "folder",
        folderName: RECOVERY_FOLDER,
        permissions: false,
        state: "succeeded",
        progress: expect.objectContaining({ restored: 3, skipped: 0, failed: 0 }),
      }),
    ]);
    await recoveryProgress(page).getByRole("button", { name: "Dismiss" }).click();
    await recoveryProgress(page).waitFor({ state: "detached" });
  });

  it("when the recovery has ended, then the other user's My Drive has the folder path under the recovery's folder with the three files, each once and byte for byte, and the source's has none", async () => {
    const recovered = await filesIn(TARGET.email, "root", RECOVERY_FOLDER);
    expect(recovered).toEqual([expect.objectContaining({ mimeType: GOOGLE_FOLDER })]);
    const inRecovered = await filesIn(TARGET.email, recovered[0]!.id!);
    expect(inRecovered).toEqual([expect.objectContaining({ name: FOLDER, mimeType: GOOGLE_FOLDER })]);
    const restored = await filesIn(TARGET.email, inRecovered[0]!.id!);
    expect(restored.map((file) => file.name).sort()).toEqual(FILES.map((file) => file.name).sort());
    for (const file of FILES) {
      const copy = restored.find((candidate) => candidate.name === file.name)!;
      expect(copy.mimeType).toBe(file.mimeType);
      // New files in the other user's Drive, with the same content.
      expect(copy.id).not.toBe(file.id);
      const content = await contentOf(TARGET.email, { id: copy.id!, mimeType: copy.mimeType! });
      if (file.mimeType === GOOGLE_DOC) expect(content.toString("utf8")).toBe(file.content!.toString("utf8"));
      else expect(content.equals(file.content!)).toBe(true);
    }

    // The recovery went to the other user: the source still has neither the folder nor the files.
    expect(await filesIn(SOURCE.email, "root", FOLDER)).toEqual([]);
    expect(await filesIn(SOURCE.email, "root", RECOVERY_FOLDER)).toEqual([]);
    for (const file of FILES) {
      const { data } = await driveOf(SOURCE.email).files.list({
        q: `name = ${quoted(file.name)} and trashed = false`,
        fields: "files(id)",
      });
      expect(data.files ?? []).toEqual([]);
    }
  });

  it("when the screens were used, then no page error occurred", () => {
    expect(errors).toEqual([]);
  });
});
