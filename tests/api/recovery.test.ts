/**
 * Recovering mail through the API, end to end on the stack (docs/requirements.md#screens-and-navigation recovery modal, #validation, #errors-and-messages): a backed-up
 * mailbox loses messages at the source; recovering them to the mailbox (separate folder) brings back the
 * exact bytes under the folder's label, once; a repeated delivery or a recovery resumed after dying between
 * import and ledger duplicates nothing; "overwrite" skips what is there; recovery to another mailbox; one
 * recovery per target at a time (409 with the required text); the validation texts; the audit entries.
 */
import type { AuditPage } from "@alpvault/contracts/audit";
import { RECOVERY_MESSAGES, type Recovery } from "@alpvault/contracts/recovery";
import { SCOPES, unzip } from "../../emulators/workspace/src/index";
import { parseMbox } from "../../functions/src/export/mbox";
import {
  assignDefaultPolicy,
  enqueueTaskTo,
  finishedRun,
  organizationWithData,
  resourceOf,
  runsOf,
  today,
} from "../support/backup-runs";
import { drainTasks } from "../support/background";
import { recoveriesOf, resumeDeadRecovery } from "../support/recoveries";
import { driveFor, gmailFor, workspaceAdmin } from "../support/workspace";

jest.setTimeout(180_000);

let setup: Awaited<ReturnType<typeof organizationWithData>>;
let gone: string[];
let docId: string;
let largeId: string;
/** Above the resumable-upload threshold (8 MiB): restored in pieces. */
const LARGE = Buffer.from(Array.from({ length: 10 * 1024 * 1024 }, (_, index) => (index * 7919) % 251));
const GOOGLE_DOC = "application/vnd.google-apps.document";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

const recover = (body: Record<string, unknown>) => recoveriesOf(setup.call, setup.organization).start(body);
const finished = (recoveryId: string) => recoveriesOf(setup.call, setup.organization).finished(recoveryId);

/** The messages of a mailbox with this Message-ID (what the emulator's Gmail finds). */
async function withMessageId(user: string, raw: Buffer) {
  const header = /^Message-ID:\s*<([^>]+)>/im.exec(raw.toString("latin1"))?.[1];
  const gmail = gmailFor(user, [SCOPES.gmailReadonly]);
  const { data } = await gmail.users.messages.list({
    userId: "me",
    q: `rfc822msgid:${header}`,
    includeSpamTrash: true,
  });
  return Promise.all(
    (data.messages ?? []).map(async (message) => {
      const full = await gmail.users.messages.get({ userId: "me", id: message.id!, format: "raw" });
      return {
        id: message.id!,
        raw: Buffer.from(full.data.raw!, "base64url"),
        labelIds: full.data.labelIds ?? [],
      };
    }),
  );
}

/** The official Drive client as the mailbox's user. */
const userDrive = () => driveFor(setup.workspace.user, [SCOPES.drive]);

async function labelNames(user: string, ids: string[]): Promise<string[]> {
  const { data } = await gmailFor(user, [SCOPES.gmailReadonly]).users.labels.list({ userId: "me" });
  return (data.labels ?? []).filter((label) => ids.includes(label.id!)).map((label) => label.name!);
}

beforeAll(async () => {
  setup = await organizationWithData(5);
  // The file is shared with the admin: a recovery with permissions re-applies it.
  const shared = await workspaceAdmin("POST", `/drive/files/${setup.file.id}/permissions`, {
    type: "user",
    role: "reader",
    emailAddress: setup.workspace.admin,
  });
  expect(shared.status).toBe(200);
  const doc = await workspaceAdmin<{ id: string }>("POST", `/users/${setup.workspace.user}/drive/files`, {
    name: "Board minutes",
    mimeType: GOOGLE_DOC,
    text: "Board minutes\nThe budget is approved",
  });
  expect(doc.status).toBe(200);
  docId = doc.body.id;
  const large = await workspaceAdmin<{ id: string }>("POST", `/users/${setup.workspace.user}/drive/files`, {
    name: "survey.bin",
    mimeType: "application/octet-stream",
    content: LARGE.toString("base64"),
  });
  expect(large.status).toBe(200);
  largeId = large.body.id;
  await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
  const [run] = await runsOf(setup.organization, setup.resource.resourceId);
  expect(await finishedRun(setup.organization, setup.resource.resourceId, run!.runId)).toMatchObject({
    state: "succeeded",
  });
  gone = [...setup.raws.keys()].slice(0, 2);
  for (const id of gone)
    await workspaceAdmin("DELETE", `/users/${setup.workspace.user}/gmail/messages/${id}`);
});

test("when the recovery request breaks the modal's rules, then the API answers 400 with its texts; unknown resources are 404", async () => {
  const base = {
    resourceId: setup.resource.resourceId,
    service: "gmail",
    location: "original",
    method: "folder",
    folderName: "Restored",
  };
  const cases: [Record<string, unknown>, string][] = [
    [{ ...base, folderName: "" }, RECOVERY_MESSAGES.folderRequired],
    [{ ...base, folderName: "Not allowed!" }, RECOVERY_MESSAGES.folderCharacters],
    [{ ...base, location: "other" }, RECOVERY_MESSAGES.targetRequired],
  ];
  for (const [body, message] of cases) {
    expect(await recover(body)).toMatchObject({ status: 400, body: { code: 400, message } });
  }
  expect((await recover({ ...base, method: "sideways" })).status).toBe(400);
  expect(await recover({ ...base, resourceId: "user-nobody" })).toMatchObject({
    status: 404,
    body: { code: 404, message: RECOVERY_MESSAGES.resourceNotFound },
  });
});

test("when deleted messages are recovered to their mailbox in a separate folder, then each comes back once, byte for byte, under the folder's label; a second recovery meanwhile is refused with 409", async () => {
  const answer = await recover({
    resourceId: setup.resource.resourceId,
    service: "gmail",
    itemIds: gone,
    location: "original",
    method: "folder",
    folderName: "Restored-2026",
  });
  expect(answer.status).toBe(202);
  const started = answer.body as Recovery;
  expect(started).toMatchObject({
    state: "pending",
    targetResourceId: setup.resource.resourceId,
    folderName: "Restored-2026",
  });
  expect(
    await recover({
      resourceId: setup.resource.resourceId,
      service: "gmail",
      location: "original",
      method: "overwrite",
    }),
  ).toMatchObject({ status: 409, body: { code: 409, message: RECOVERY_MESSAGES.inProgress } });

  const done = await finished(started.recoveryId);
  expect(done).toMatchObject({
    state: "succeeded",
    progress: { total: 2, restored: 2, skipped: 0, failed: 0 },
  });
  for (const id of gone) {
    const found = await withMessageId(setup.workspace.user, setup.raws.get(id)!);
    expect(found).toHaveLength(1);
    expect(found[0]!.raw.equals(setup.raws.get(id)!)).toBe(true);
    expect(await labelNames(setup.workspace.user, found[0]!.labelIds)).toContain("Restored-2026");
  }

  // The same task delivered again: the recovery is over, nothing is imported twice.
  await enqueueTaskTo("runRecovery", {
    organizationId: setup.organization.organizationId,
    recoveryId: started.recoveryId,
  });
  expect((await drainTasks()).map((delivery) => delivery.outcome)).toEqual(["done"]);
  for (const id of gone)
    expect(await withMessageId(setup.workspace.user, setup.raws.get(id)!)).toHaveLength(1);
});

test("when a recovery died between an import and its ledger entry, then the resumed recovery finds the message and imports nothing", async () => {
  const [first] = gone as [string];
  const recoveryId = await resumeDeadRecovery(setup.organization, {
    service: "gmail",
    resourceId: setup.resource.resourceId,
    folderName: "Restored-2026",
    itemId: first,
    requestedBy: setup.workspace.admin,
  });
  expect(await finished(recoveryId)).toMatchObject({ state: "succeeded", progress: { restored: 1 } });
  expect(await withMessageId(setup.workspace.user, setup.raws.get(first)!)).toHaveLength(1);
});

test("when everything is recovered with 'overwrite', then what is in the mailbox is skipped and nothing is duplicated", async () => {
  const answer = await recover({
    resourceId: setup.resource.resourceId,
    service: "gmail",
    location: "original",
    method: "overwrite",
  });
  expect(answer.status).toBe(202);
  const done = await finished((answer.body as Recovery).recoveryId);
  expect(done).toMatchObject({ state: "succeeded", progress: { total: 5, restored: 0, skipped: 5 } });
  for (const raw of setup.raws.values())
    expect(await withMessageId(setup.workspace.user, raw)).toHaveLength(1);
});

test("when messages are recovered to another mailbox, then they arrive there in the folder, and the audit log has the recovery", async () => {
  const admin = await resourceOf(setup.call, setup.organization, setup.workspace.admin);
  const answer = await recover({
    resourceId: setup.resource.resourceId,
    service: "gmail",
    itemIds: gone,
    location: "other",
    targetResourceId: admin.resourceId,
    method: "folder",
    folderName: "From-Ueli",
  });
  expect(answer.status).toBe(202);
  expect(await finished((answer.body as Recovery).recoveryId)).toMatchObject({
    state: "succeeded",
    progress: { restored: 2 },
  });
  for (const id of gone) {
    const found = await withMessageId(setup.workspace.admin, setup.raws.get(id)!);
    expect(found).toHaveLength(1);
    expect(found[0]!.raw.equals(setup.raws.get(id)!)).toBe(true);
    expect(await labelNames(setup.workspace.admin, found[0]!.labelIds)).toContain("From-Ueli");
  }
  const audit = await setup.call(
    `/organizations/${setup.organization.organizationId}/audit-logs?start=${today()}&end=${today()}&pageSize=100`,
  );
  const operations = (audit.body as AuditPage).entries.map((entry) => entry.operation);
  expect(operations.filter((operation) => operation === "recovery.started").length).toBeGreaterThanOrEqual(3);
  expect(operations.filter((operation) => operation === "recovery.finished").length).toBeGreaterThanOrEqual(
    3,
  );
});

test("when a deleted Drive file is recovered to a separate folder with its sharing, then it is there with the same bytes and its permission", async () => {
  const drive = userDrive();
  expect((await workspaceAdmin("DELETE", `/drive/files/${setup.file.id}`)).status).toBeLessThan(300);
  const answer = await recover({
    resourceId: setup.resource.resourceId,
    service: "drive",
    itemIds: [setup.file.id],
    location: "original",
    method: "folder",
    folderName: "Restored-Files",
    permissions: true,
  });
  expect(answer.status).toBe(202);
  expect(await finished((answer.body as Recovery).recoveryId)).toMatchObject({
    state: "succeeded",
    progress: { restored: 1, failed: 0 },
  });
  const folders = await drive.files.list({
    q: "name = 'Restored-Files' and 'root' in parents and trashed = false",
    fields: "files(id,mimeType)",
  });
  expect(folders.data.files).toHaveLength(1);
  const inFolder = await drive.files.list({
    q: `'${folders.data.files![0]!.id!}' in parents and trashed = false`,
    fields: "files(id,name)",
  });
  expect(inFolder.data.files?.map((file) => file.name)).toEqual(["budget.txt"]);
  const restoredId = inFolder.data.files![0]!.id!;
  const bytes = await drive.files.get({ fileId: restoredId, alt: "media" }, { responseType: "arraybuffer" });
  expect(Buffer.from(bytes.data as ArrayBuffer).equals(setup.file.bytes)).toBe(true);
  const permissions = await drive.permissions.list({
    fileId: restoredId,
    fields: "permissions(role,emailAddress)",
  });
  expect(permissions.data.permissions).toContainEqual(
    expect.objectContaining({ role: "reader", emailAddress: setup.workspace.admin }),
  );
});

test("when a mailbox is exported, then the MBOX holds every backed-up message byte for byte, deleted ones included; selected items only when named", async () => {
  const base = `/organizations/${setup.organization.organizationId}/exports/mbox`;
  const all = await setup.call(base, {
    method: "POST",
    body: { resourceId: setup.resource.resourceId, service: "gmail" },
  });
  expect(all.status).toBe(200);
  expect(all.contentType).toContain("application/mbox");
  const messages = parseMbox(all.bytes);
  expect(messages).toHaveLength(setup.raws.size);
  for (const raw of setup.raws.values()) expect(messages.some((message) => message.equals(raw))).toBe(true);

  const some = await setup.call(base, {
    method: "POST",
    body: { resourceId: setup.resource.resourceId, service: "gmail", itemIds: gone },
  });
  const selected = parseMbox(some.bytes);
  expect(selected.map((message) => message.toString("latin1"))).toEqual(
    gone.map((id) => setup.raws.get(id)!.toString("latin1")),
  );

  expect(
    (
      await setup.call(base, {
        method: "POST",
        body: { resourceId: setup.resource.resourceId, service: "drive" },
      })
    ).status,
  ).toBe(400);
  expect(
    (await setup.call(base, { method: "POST", body: { resourceId: "user-nobody", service: "gmail" } }))
      .status,
  ).toBe(404);
});

test("when a drive is exported, then the ZIP holds every backed-up file under its folder path with its bytes, deleted ones included", async () => {
  const answer = await setup.call(`/organizations/${setup.organization.organizationId}/exports/zip`, {
    method: "POST",
    body: { resourceId: setup.resource.resourceId, service: "drive" },
  });
  expect(answer.status).toBe(200);
  expect(answer.contentType).toContain("application/zip");
  const entries = unzip(answer.bytes);
  expect([...entries.keys()].sort()).toEqual([
    "My Drive/Board minutes.docx",
    "My Drive/budget.txt",
    "My Drive/survey.bin",
  ]);
  expect(entries.get("My Drive/survey.bin")?.equals(LARGE)).toBe(true);
  expect(entries.get("My Drive/budget.txt")?.equals(setup.file.bytes)).toBe(true);
  const docx = unzip(entries.get("My Drive/Board minutes.docx")!);
  expect(docx.get("word/document.xml")?.toString("utf8")).toContain("The budget is approved");
});

test("when a deleted Google Doc is recovered, then it comes back as a Google Doc with the same text", async () => {
  const drive = userDrive();
  const before = await drive.files.export({ fileId: docId, mimeType: DOCX }, { responseType: "arraybuffer" });
  const textBefore = unzip(Buffer.from(before.data as ArrayBuffer))
    .get("word/document.xml")
    ?.toString("utf8");
  expect(textBefore).toContain("The budget is approved");
  expect((await workspaceAdmin("DELETE", `/drive/files/${docId}`)).status).toBeLessThan(300);
  const answer = await recover({
    resourceId: setup.resource.resourceId,
    service: "drive",
    itemIds: [docId],
    location: "original",
    method: "folder",
    folderName: "Restored-Docs",
  });
  expect(await finished((answer.body as Recovery).recoveryId)).toMatchObject({
    state: "succeeded",
    progress: { restored: 1 },
  });
  const found = await drive.files.list({
    q: "name = 'Board minutes' and trashed = false",
    fields: "files(id,mimeType)",
  });
  expect(found.data.files).toHaveLength(1);
  expect(found.data.files![0]!.mimeType).toBe(GOOGLE_DOC);
  const after = await drive.files.export(
    { fileId: found.data.files![0]!.id!, mimeType: DOCX },
    { responseType: "arraybuffer" },
  );
  const textAfter = unzip(Buffer.from(after.data as ArrayBuffer))
    .get("word/document.xml")
    ?.toString("utf8");
  expect(textAfter).toContain("Board minutes");
  expect(textAfter).toContain("The budget is approved");
});

test("when a deleted large file is recovered, then it is uploaded resumably in pieces and has the same bytes", async () => {
  const drive = userDrive();
  expect((await workspaceAdmin("DELETE", `/drive/files/${largeId}`)).status).toBeLessThan(300);
  const answer = await recover({
    resourceId: setup.resource.resourceId,
    service: "drive",
    itemIds: [largeId],
    location: "original",
    method: "folder",
    folderName: "Restored-Large",
  });
  expect(await finished((answer.body as Recovery).recoveryId)).toMatchObject({
    state: "succeeded",
    progress: { restored: 1 },
  });
  const found = await drive.files.list({
    q: "name = 'survey.bin' and trashed = false",
    fields: "files(id,size)",
  });
  expect(found.data.files).toHaveLength(1);
  const bytes = await drive.files.get(
    { fileId: found.data.files![0]!.id!, alt: "media" },
    { responseType: "arraybuffer" },
  );
  expect(Buffer.from(bytes.data as ArrayBuffer).equals(LARGE)).toBe(true);
});
