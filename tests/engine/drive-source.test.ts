/**
 * The Drive source against the Workspace emulator in-process, through the official Drive client: My Drive
 * and shared drive listings, folder paths, blob and export content, permissions, changes, invalid page
 * tokens and streaming.
 */
import { createHash, randomBytes } from "node:crypto";
import { drive_v3 } from "@googleapis/drive";
import { type Harness, SCOPES, startHarness } from "../../emulators/workspace/src/index";
import {
  DIRECT_CALLER,
  type GoogleCaller,
  type GoogleRequest,
} from "../../functions/src/engine/google/caller";
import { DriveSource, type DriveResource } from "../../functions/src/engine/drive/source";
import type { ChangeBatch, DriveSearchFields, ItemRef } from "../../functions/src/engine/sources/source";

const DOC = "application/vnd.google-apps.document";
const FOLDER = "application/vnd.google-apps.folder";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
});

afterAll(async () => {
  await harness.stop();
});

let userCounter = 0;

async function newUser(): Promise<string> {
  userCounter += 1;
  const email = `drive${userCounter}@example-test.test`;
  expect(
    (await harness.admin("POST", "/users", { email, givenName: "Drive", familyName: `User${userCounter}` }))
      .status,
  ).toBe(200);
  return email;
}

interface Created {
  id: string;
  version: string;
}

async function addFile(
  user: string,
  name: string,
  options: {
    mimeType?: string;
    text?: string;
    content?: Buffer;
    parentId?: string;
    driveId?: string;
    abusive?: boolean;
  } = {},
): Promise<string> {
  const answer = await harness.admin<Created>("POST", `/users/${user}/drive/files`, {
    name,
    mimeType: options.mimeType ?? "text/plain",
    ...(options.content ? { content: options.content.toString("base64") } : {}),
    ...(options.text !== undefined ? { text: options.text } : {}),
    ...(options.content === undefined && options.text === undefined && options.mimeType !== FOLDER
      ? { text: `${name} content` }
      : {}),
    ...(options.parentId ? { parentId: options.parentId } : {}),
    ...(options.driveId ? { driveId: options.driveId } : {}),
    ...(options.abusive ? { abusive: true } : {}),
  });
  expect(answer.status).toBe(200);
  return answer.body.id;
}

function client(user: string): { drive: drive_v3.Drive; accessToken: () => Promise<string> } {
  const auth = harness.jwt(user, [SCOPES.drive]);
  return {
    // As the engine builds its clients: retries belong to the caller alone.
    drive: new drive_v3.Drive({ auth, rootUrl: `${harness.url}/`, retry: false }),
    accessToken: async () => (await auth.getAccessToken()).token ?? "",
  };
}

function source(
  resource: DriveResource,
  options: { caller?: GoogleCaller; pageSize?: number } = {},
): DriveSource {
  const user = resource.kind === "user" ? resource.email : resource.actAs;
  return new DriveSource({ ...client(user), resource, caller: options.caller ?? DIRECT_CALLER, ...options });
}

async function collect(listing: AsyncIterable<ChangeBatch>): Promise<ChangeBatch[]> {
  const batches: ChangeBatch[] = [];
  for await (const batch of listing) batches.push(batch);
  return batches;
}

function upserts(batches: ChangeBatch[]): ItemRef[] {
  return batches.flatMap((batch) =>
    batch.changes.flatMap((change) => (change.type === "upsert" ? [change.item] : [])),
  );
}

async function parts(content: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const part of content) out.push(part);
  return out;
}

async function bytesOf(content: AsyncIterable<Buffer>): Promise<Buffer> {
  return Buffer.concat(await parts(content));
}

function headContent(fileId: string): Buffer {
  const file = harness.emulator.drive.file(fileId);
  if (!file) throw new Error(`no file ${fileId}`);
  return harness.emulator.drive.head(file)?.content ?? Buffer.alloc(0);
}

async function lastCursor(drive: DriveSource): Promise<string> {
  const batches = await collect(drive.listChanges(null));
  return batches[batches.length - 1]?.nextCursor ?? "";
}

describe("Drive source: My Drive", () => {
  it("when a My Drive is listed in full, then every file the user owns is reported with its folder path, exact bytes and permissions", async () => {
    const user = await newUser();
    const other = await newUser();
    const projects = await addFile(user, "Projects", { mimeType: FOLDER });
    const year = await addFile(user, "2026", { mimeType: FOLDER, parentId: projects });
    const top = await addFile(user, "top.txt", { text: "at the root" });
    const deep = await addFile(user, "plan.bin", {
      content: randomBytes(5000),
      mimeType: "application/octet-stream",
      parentId: year,
    });
    const foreign = await addFile(other, "theirs.txt");
    await harness.admin("POST", `/drive/files/${foreign}/permissions`, {
      type: "user",
      role: "reader",
      emailAddress: user,
    });
    await harness.admin("POST", `/drive/files/${deep}/permissions`, {
      type: "user",
      role: "writer",
      emailAddress: other,
    });
    await harness.admin("POST", `/drive/files/${deep}/permissions`, {
      type: "domain",
      role: "reader",
      domain: "example-test.test",
    });
    const drive = source({ kind: "user", email: user }, { pageSize: 2 });

    const batches = await collect(drive.listChanges(null));

    expect(batches.length).toBeGreaterThan(1);
    expect(batches[0]?.fullListing).toBe(true);
    expect(batches[batches.length - 1]?.done).toBe(true);
    expect(batches[batches.length - 1]?.nextCursor).toMatch(/^\d+$/);
    const refs = upserts(batches);
    expect(refs.map((ref) => ref.itemKey).sort()).toEqual([top, deep].sort());
    expect(batches.flatMap((batch) => batch.changes).every((change) => change.type === "upsert")).toBe(true);

    const fetchedTop = await drive.fetch(refs.find((ref) => ref.itemKey === top) as ItemRef);
    expect(fetchedTop.metadata.path).toBe("My Drive");
    expect((await bytesOf(fetchedTop.content)).equals(headContent(top))).toBe(true);

    const fetchedDeep = await drive.fetch(refs.find((ref) => ref.itemKey === deep) as ItemRef);
    expect(fetchedDeep.metadata.path).toBe("My Drive/Projects/2026");
    expect((await bytesOf(fetchedDeep.content)).equals(headContent(deep))).toBe(true);
    expect(fetchedDeep.contentKey).toBe(fetchedDeep.metadata.headRevisionId);
    expect(fetchedDeep.size).toBe(5000);
    expect(fetchedDeep.metadata.permissions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "user", role: "owner", emailAddress: user }),
        expect.objectContaining({ type: "user", role: "writer", emailAddress: other }),
        expect.objectContaining({
          type: "domain",
          role: "reader",
          domain: "example-test.test",
          allowFileDiscovery: false,
        }),
      ]),
    );
    const search = fetchedDeep.search as DriveSearchFields;
    expect(search).toEqual({
      kind: "drive",
      display: { name: "plan.bin", path: "My Drive/Projects/2026" },
      name: "plan.bin",
      path: "my drive/projects/2026",
      mimeType: "application/octet-stream",
      createdBy: user,
      modifiedTime: fetchedDeep.metadata.modifiedTime,
      size: 5000,
      googleId: deep,
      keywords: ["plan", "bin"],
    });
  });

  it("when a Google Doc is backed up, then its content is the docx export and the version keeps its native metadata", async () => {
    const user = await newUser();
    const folder = await addFile(user, "Docs", { mimeType: FOLDER });
    const doc = await addFile(user, "Minutes", {
      mimeType: DOC,
      text: "Meeting minutes\nSecond line",
      parentId: folder,
    });
    const { drive: official } = client(user);
    const drive = source({ kind: "user", email: user });

    const ref = upserts(await collect(drive.listChanges(null))).find(
      (item) => item.itemKey === doc,
    ) as ItemRef;
    const fetched = await drive.fetch(ref);
    const content = await bytesOf(fetched.content);

    const expected = await official.files.export(
      { fileId: doc, mimeType: DOCX },
      { responseType: "arraybuffer" },
    );
    expect(content.equals(Buffer.from(expected.data as ArrayBuffer))).toBe(true);
    expect(content.subarray(0, 2).toString()).toBe("PK");
    expect(fetched.size).toBeUndefined();
    expect(fetched.metadata.native).toEqual({
      mimeType: DOC,
      exportMimeType: DOCX,
      name: "Minutes",
      parents: [folder],
      path: "My Drive/Docs",
    });
    expect(fetched.metadata.mimeType).toBe(DOC);
    expect(fetched.contentKey).toBe(`${fetched.metadata.version}:${fetched.metadata.modifiedTime}`);
  });

  it("when a 2 MB+ file is fetched, then its content arrives as several buffers that add up to the file", async () => {
    const user = await newUser();
    const data = randomBytes(2 * 1024 * 1024 + 12345);
    const id = await addFile(user, "large.bin", { content: data, mimeType: "application/octet-stream" });
    const drive = source({ kind: "user", email: user });
    const ref = upserts(await collect(drive.listChanges(null)))[0] as ItemRef;

    const fetched = await drive.fetch(ref);
    const received = await parts(fetched.content);

    expect(ref.itemKey).toBe(id);
    expect(received.length).toBeGreaterThan(1);
    expect(received.every((part) => Buffer.isBuffer(part) && part.length < data.length)).toBe(true);
    expect(Buffer.concat(received).equals(data)).toBe(true);
  });

  it("when a fetched item's content is not read, then nothing is downloaded", async () => {
    const user = await newUser();
    await addFile(user, "unread.txt");
    const methods: string[] = [];
    const caller: GoogleCaller = {
      call: (request: GoogleRequest, send) => {
        methods.push(request.method);
        return send();
      },
    };
    const drive = source({ kind: "user", email: user }, { caller });
    const ref = upserts(await collect(drive.listChanges(null)))[0] as ItemRef;
    methods.length = 0;

    const fetched = await drive.fetch(ref);

    expect(fetched.contentKey).toBeTruthy();
    // The root folder's id (for the path) and the permissions: no download.
    expect(methods.sort()).toEqual(["drive.files.get", "drive.permissions.list"]);
    await bytesOf(fetched.content);
    expect(methods).toContain("drive.files.download");
  });

  it("when files are edited, deleted, moved and shared after a backup, then the incremental listing reports exactly those files", async () => {
    const user = await newUser();
    const other = await newUser();
    const from = await addFile(user, "From", { mimeType: FOLDER });
    const to = await addFile(user, "To", { mimeType: FOLDER });
    const edited = await addFile(user, "edited.txt", { text: "v1" });
    const deleted = await addFile(user, "deleted.txt");
    const moved = await addFile(user, "moved.txt", { parentId: from });
    const shared = await addFile(user, "shared.txt");
    const untouched = await addFile(user, "untouched.txt");
    const drive = source({ kind: "user", email: user });
    const before = upserts(await collect(drive.listChanges(null)));
    const cursor = await lastCursor(source({ kind: "user", email: user }));
    const keysBefore = new Map(before.map((ref) => [ref.itemKey, ref]));

    await harness.admin("POST", `/drive/files/${edited}/content`, { text: "v2" });
    expect((await harness.admin("DELETE", `/drive/files/${deleted}`)).status).toBe(204);
    const { drive: official } = client(user);
    await official.files.update({ fileId: moved, addParents: to, removeParents: from, fields: "id" });
    await harness.admin("POST", `/drive/files/${shared}/permissions`, {
      type: "user",
      role: "reader",
      emailAddress: other,
    });

    const batches = await collect(source({ kind: "user", email: user }).listChanges(cursor));

    const changes = batches.flatMap((batch) => batch.changes);
    const keyed = new Map(
      changes.map((change) => [change.type === "upsert" ? change.item.itemKey : change.itemKey, change]),
    );
    expect([...keyed.keys()].sort()).toEqual([edited, deleted, moved, shared].sort());
    expect(keyed.has(untouched)).toBe(false);
    expect(keyed.get(deleted)).toEqual({ type: "delete", itemKey: deleted });
    const ref = (id: string): ItemRef => {
      const change = keyed.get(id);
      if (change?.type !== "upsert") throw new Error(`expected an upsert for ${id}`);
      return change.item;
    };
    // An edit changes the content key; a share or a move changes only the version key.
    expect(ref(edited).contentKey).not.toBe(keysBefore.get(edited)?.contentKey);
    expect(ref(shared).contentKey).toBe(keysBefore.get(shared)?.contentKey);
    expect(ref(shared).versionKey).not.toBe(keysBefore.get(shared)?.versionKey);
    expect(ref(moved).contentKey).toBe(keysBefore.get(moved)?.contentKey);

    const fresh = source({ kind: "user", email: user });
    expect((await bytesOf((await fresh.fetch(ref(edited))).content)).toString()).toBe("v2");
    expect((await fresh.fetch(ref(moved))).metadata.path).toBe("My Drive/To");
    expect((await fresh.fetch(ref(shared))).metadata.permissions).toEqual(
      expect.arrayContaining([expect.objectContaining({ role: "reader", emailAddress: other })]),
    );
    expect(batches[batches.length - 1]?.done).toBe(true);
    expect(batches.some((batch) => batch.resynced)).toBe(false);
  });

  it("when the saved page token is no longer valid, then the source restarts a full listing marked resynced instead of failing", async () => {
    const user = await newUser();
    const id = await addFile(user, "kept.txt");

    const batches = await collect(source({ kind: "user", email: user }).listChanges("987654321"));

    expect(batches[0]?.resynced).toBe(true);
    expect(batches[0]?.fullListing).toBe(true);
    expect(upserts(batches).map((ref) => ref.itemKey)).toEqual([id]);
    const next = await collect(
      source({ kind: "user", email: user }).listChanges(batches[batches.length - 1]?.nextCursor ?? ""),
    );
    expect(next.some((batch) => batch.resynced)).toBe(false);
  });

  it("when a full listing is resumed from a mid-listing cursor, then it reports the remaining pages only", async () => {
    const user = await newUser();
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push(await addFile(user, `file-${index}.txt`));
    const first = (
      await collect(source({ kind: "user", email: user }, { pageSize: 2 }).listChanges(null))
    )[0] as ChangeBatch;

    const rest = await collect(
      source({ kind: "user", email: user }, { pageSize: 2 }).listChanges(first.nextCursor),
    );

    expect(rest[0]?.fullListing).toBeUndefined();
    expect([...upserts([first]), ...upserts(rest)].map((ref) => ref.itemKey).sort()).toEqual([...ids].sort());
  });
});

describe("Drive source: trash and stale listings", () => {
  it("when a file is trashed, then it stays an item whose version says it is trashed", async () => {
    const user = await newUser();
    const id = await addFile(user, "binned.txt");
    const cursor = await lastCursor(source({ kind: "user", email: user }));
    const { drive: official } = client(user);
    await official.files.update({ fileId: id, requestBody: { trashed: true }, fields: "id" });

    const drive = source({ kind: "user", email: user });
    const changes = (await collect(drive.listChanges(cursor))).flatMap((batch) => batch.changes);

    expect(changes).toHaveLength(1);
    const change = changes[0];
    if (change?.type !== "upsert") throw new Error("expected an upsert");
    expect((await drive.fetch(change.item)).metadata.trashed).toBe(true);
    // A full listing still reports it.
    const full = upserts(await collect(source({ kind: "user", email: user }).listChanges(null)));
    expect(full.map((ref) => ref.itemKey)).toEqual([id]);
  });

  it("when a file's ownership moves to another user, then it leaves the former owner's My Drive as a delete", async () => {
    const user = await newUser();
    const other = await newUser();
    const id = await addFile(user, "handed-over.txt");
    const cursor = await lastCursor(source({ kind: "user", email: user }));
    const { drive: official } = client(user);
    await official.permissions.create({
      fileId: id,
      transferOwnership: true,
      requestBody: { type: "user", role: "owner", emailAddress: other },
    });

    const changes = (await collect(source({ kind: "user", email: user }).listChanges(cursor))).flatMap(
      (batch) => batch.changes,
    );
    const gained = upserts(await collect(source({ kind: "user", email: other }).listChanges(null)));

    expect(changes).toEqual([{ type: "delete", itemKey: id }]);
    expect(gained.map((ref) => ref.itemKey)).toEqual([id]);
  });

  it("when a resumed full listing's page token is refused, then the listing starts over marked resynced", async () => {
    const user = await newUser();
    const id = await addFile(user, "again.txt");
    const stale = JSON.stringify({ drive: "full", startPageToken: "1", pageToken: "not-a-token" });

    const batches = await collect(source({ kind: "user", email: user }).listChanges(stale));

    expect(batches[0]?.resynced).toBe(true);
    expect(batches[0]?.fullListing).toBe(true);
    expect(upserts(batches).map((ref) => ref.itemKey)).toEqual([id]);
  });
});

describe("Drive source: downloads that Drive refuses or breaks", () => {
  afterEach(async () => {
    await harness.admin("DELETE", "/faults");
  });

  it("when a file is flagged as abusive, then it is still backed up, acknowledging the flag", async () => {
    const user = await newUser();
    const id = await addFile(user, "flagged.exe", {
      content: randomBytes(1000),
      mimeType: "application/octet-stream",
      abusive: true,
    });
    const drive = source({ kind: "user", email: user });
    const ref = upserts(await collect(drive.listChanges(null)))[0] as ItemRef;

    const content = await bytesOf((await drive.fetch(ref)).content);

    expect(content.equals(headContent(id))).toBe(true);
  });

  it("when a download fails, then reading the content fails instead of returning part of it", async () => {
    const user = await newUser();
    await addFile(user, "broken.bin", { content: randomBytes(1000), mimeType: "application/octet-stream" });
    const drive = source({ kind: "user", email: user });
    const ref = upserts(await collect(drive.listChanges(null)))[0] as ItemRef;
    const fetched = await drive.fetch(ref);
    await harness.admin("POST", "/faults", { method: "drive.files.download", sequence: [{ kind: "reset" }] });

    await expect(bytesOf(fetched.content)).rejects.toThrow();
  });

  it("when a file changes between listing and download, then the fetch names the listed md5 and size for the runner to check, and a fetch without the hint gets the new bytes", async () => {
    const user = await newUser();
    const id = await addFile(user, "moving.txt", { text: "listed" });
    const drive = source({ kind: "user", email: user });
    const ref = upserts(await collect(drive.listChanges(null)))[0] as ItemRef;
    await harness.admin("POST", `/drive/files/${id}/content`, { text: "changed since" });

    const hinted = await drive.fetch(ref);
    expect(hinted.expected).toEqual({ md5: createHash("md5").update("listed").digest("hex"), size: 6 });
    expect((await bytesOf(hinted.content)).toString()).toBe("changed since");

    const fresh = await drive.fetch({ itemKey: id });
    expect(fresh.expected).toEqual({
      md5: createHash("md5").update("changed since").digest("hex"),
      size: "changed since".length,
    });
    expect((await bytesOf(fresh.content)).toString()).toBe("changed since");
    expect(fresh.contentKey).not.toBe(ref.contentKey);
  });

  it("when a file is deleted between listing and fetch, then the fetch says the item is gone", async () => {
    const user = await newUser();
    const id = await addFile(user, "gone.txt");
    const drive = source({ kind: "user", email: user });
    const ref = upserts(await collect(drive.listChanges(null)))[0] as ItemRef;
    await harness.admin("DELETE", `/drive/files/${id}`);

    await expect(drive.fetch(ref)).rejects.toMatchObject({ name: "ItemGoneError", itemKey: id });
  });
});

describe("Drive source: shared drives", () => {
  it("when a shared drive is listed and changed, then its files are reported with paths under the drive's name, and its changes only", async () => {
    const admin = await newUser();
    const member = await newUser();
    const created = await harness.admin<{ id: string }>("POST", `/users/${member}/drive/drives`, {
      name: "Finance",
    });
    const driveId = created.body.id;
    await harness.admin("POST", `/drive/drives/${driveId}/members`, {
      type: "user",
      role: "organizer",
      emailAddress: admin,
    });
    const reports = await addFile(member, "Reports", { mimeType: FOLDER, driveId });
    const report = await addFile(member, "q1.csv", {
      text: "a,b\n1,2\n",
      mimeType: "text/csv",
      parentId: reports,
    });
    const sheet = await addFile(member, "Budget", {
      mimeType: "application/vnd.google-apps.spreadsheet",
      text: "1\t2",
      driveId,
    });
    const myDriveFile = await addFile(member, "personal.txt");
    const resource: DriveResource = { kind: "shared-drive", driveId, actAs: admin };

    const batches = await collect(source(resource).listChanges(null));

    const refs = upserts(batches);
    expect(refs.map((ref) => ref.itemKey).sort()).toEqual([report, sheet].sort());
    const drive = source(resource);
    const fetchedReport = await drive.fetch(refs.find((ref) => ref.itemKey === report) as ItemRef);
    expect(fetchedReport.metadata.path).toBe("Finance/Reports");
    expect(fetchedReport.metadata.driveId).toBe(driveId);
    expect((await bytesOf(fetchedReport.content)).equals(headContent(report))).toBe(true);
    expect(fetchedReport.metadata.permissions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ emailAddress: admin, role: "organizer", inherited: true }),
      ]),
    );
    const fetchedSheet = await drive.fetch(refs.find((ref) => ref.itemKey === sheet) as ItemRef);
    expect(fetchedSheet.metadata.native?.exportMimeType).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect((await bytesOf(fetchedSheet.content)).subarray(0, 2).toString()).toBe("PK");

    const cursor = batches[batches.length - 1]?.nextCursor ?? "";
    await harness.admin("POST", `/drive/files/${report}/content`, { text: "a,b\n3,4\n" });
    await harness.admin("POST", `/drive/files/${myDriveFile}/content`, { text: "not in the shared drive" });
    await harness.admin("DELETE", `/drive/files/${sheet}`);

    const changes = (await collect(source(resource).listChanges(cursor))).flatMap((batch) => batch.changes);
    expect(changes).toHaveLength(2);
    expect(changes).toContainEqual(
      expect.objectContaining({ type: "upsert", item: expect.objectContaining({ itemKey: report }) }),
    );
    expect(changes).toContainEqual({ type: "delete", itemKey: sheet });
  });

  it("when a My Drive is listed, then files of shared drives the user belongs to are not part of it", async () => {
    const user = await newUser();
    const created = await harness.admin<{ id: string }>("POST", `/users/${user}/drive/drives`, {
      name: "Team",
    });
    await addFile(user, "in-team.txt", { driveId: created.body.id });
    const own = await addFile(user, "own.txt");

    const refs = upserts(await collect(source({ kind: "user", email: user }).listChanges(null)));

    expect(refs.map((ref) => ref.itemKey)).toEqual([own]);
  });
});

describe("Drive source with quotas on", () => {
  let quotaHarness: Harness;

  beforeAll(async () => {
    quotaHarness = await startHarness({ latency: { enabled: false } });
  });

  afterAll(async () => {
    await quotaHarness.stop();
  });

  it("when a My Drive is backed up, then every call goes through the caller under the method id the emulator charges", async () => {
    const user = "user@example-test.test";
    for (const [name, mimeType] of [
      ["blob.txt", "text/plain"],
      ["Doc", DOC],
    ] as const) {
      const created = await quotaHarness.admin("POST", `/users/${user}/drive/files`, {
        name,
        mimeType,
        text: "x",
      });
      expect(created.status).toBe(200);
    }
    await quotaHarness.admin("POST", "/stats:reset");
    const told = new Map<string, number>();
    const caller: GoogleCaller = {
      call: (request, send) => {
        expect(request).toMatchObject({ api: "drive", user, idempotent: true });
        told.set(request.method, (told.get(request.method) ?? 0) + 1);
        return send();
      },
    };
    const auth = quotaHarness.jwt(user, [SCOPES.drive]);
    const drive = new DriveSource({
      drive: new drive_v3.Drive({ auth, rootUrl: `${quotaHarness.url}/`, retry: false }),
      accessToken: async () => (await auth.getAccessToken()).token ?? "",
      resource: { kind: "user", email: user },
      caller,
    });

    for (const ref of upserts(await collect(drive.listChanges(null)))) {
      await bytesOf((await drive.fetch(ref)).content);
    }

    const stats = await quotaHarness.admin<{ users: Record<string, Record<string, { calls: number }>> }>(
      "GET",
      "/stats",
    );
    const charged = Object.fromEntries(
      Object.entries(stats.body.users[user] ?? {}).map(([method, figures]) => [method, figures.calls]),
    );
    expect(Object.fromEntries(told)).toEqual(charged);
    expect(told.get("drive.files.download")).toBe(1);
    expect(told.get("drive.files.exportLink")).toBe(1);
  });
});
