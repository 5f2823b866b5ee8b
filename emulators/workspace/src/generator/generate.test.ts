import { SCOPES } from "../auth";
import { googleError, startHarness, type Harness } from "../testing/harness";
import { FOLDER } from "./drive-tree";
import { BENCH_DOMAIN, DEMO_DOMAIN, generateOrganisation, planMailbox, planOrganisation } from "./generate";

const OPTIONS = { profile: "bench", users: 4, messagesPerUser: 25, filesPerUser: 10, seed: 11 } as const;
const ADMIN = `admin@${BENCH_DOMAIN}`;
const USER = `user@${BENCH_DOMAIN}`;

let harness: Harness;
afterEach(() => harness.stop());

describe("generateOrganisation applied to the emulator", () => {
  beforeEach(async () => {
    // These tests check generated content, not timing: the latency model is off for this file.
    harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
    generateOrganisation(harness.emulator, OPTIONS);
  });

  test("when a bench organisation is generated, then the Directory lists its users with one super admin", async () => {
    const plan = planOrganisation(OPTIONS);
    const { data } = await harness.directory(ADMIN).users.list({ customer: "my_customer", maxResults: 500 });
    const users = data.users ?? [];
    expect(users.map((user) => user.primaryEmail).sort()).toEqual(
      plan.users.map((user) => user.email).sort(),
    );
    expect(users.filter((user) => user.isAdmin).map((user) => user.primaryEmail)).toEqual([ADMIN]);
    expect(users.filter((user) => user.suspended)).toHaveLength(1);
  });

  test("when a mailbox is read with the Gmail client, then it holds the planned messages, bytes, labels and threads", async () => {
    const plan = planOrganisation(OPTIONS);
    const planned = [...planMailbox(plan, USER)];
    const gmail = harness.gmail(USER, [SCOPES.gmailReadonly]);
    const ids: string[] = [];
    let pageToken: string | undefined;
    do {
      const { data } = await gmail.users.messages.list({
        userId: "me",
        includeSpamTrash: true,
        maxResults: 10,
        pageToken,
      });
      ids.push(...(data.messages ?? []).map((message) => message.id as string));
      pageToken = data.nextPageToken ?? undefined;
    } while (pageToken);
    expect(ids).toHaveLength(planned.length);

    const labels = (await gmail.users.labels.list({ userId: "me" })).data.labels ?? [];
    const user = plan.users.find((candidate) => candidate.email === USER);
    expect(
      labels
        .filter((label) => label.type === "user")
        .map((label) => label.name)
        .sort(),
    ).toEqual([...(user?.labels ?? [])].sort());

    const byMessageId = new Map(planned.map((message) => [message.messageId, message]));
    const threadOf = new Map<string, string>();
    for (const id of ids) {
      const { data } = await gmail.users.messages.get({ userId: "me", id, format: "raw" });
      const raw = Buffer.from(data.raw ?? "", "base64url");
      const messageId = /^Message-ID: (.+)$/im.exec(raw.toString("latin1"))?.[1]?.trim() ?? "";
      const expected = byMessageId.get(messageId);
      expect(expected).toBeDefined();
      expect(raw.equals(expected?.raw ?? Buffer.alloc(0))).toBe(true);
      expect(data.internalDate).toBe(String(expected?.internalDate));
      for (const label of expected?.labelIds ?? []) expect(data.labelIds).toContain(label);
      threadOf.set(messageId, data.threadId ?? "");
    }
    const replies = planned.filter((message) => message.references.length > 0);
    expect(replies.length).toBeGreaterThan(0);
    for (const reply of replies)
      expect(threadOf.get(reply.messageId)).toBe(threadOf.get(reply.references[0] as string));
  });

  test("when Drive is read with the Drive client, then My Drive, revisions, sharing and shared drives are there", async () => {
    const plan = planOrganisation(OPTIONS);
    const drive = harness.drive(USER);
    const { data } = await drive.files.list({
      pageSize: 1000,
      q: `'${USER}' in owners`,
      fields: "files(id,name,mimeType,size,parents)",
    });
    const files = data.files ?? [];
    const mine = plan.driveItems.filter((item) => item.ownerEmail === USER && !item.sharedDriveKey);
    expect(files.map((file) => `${file.mimeType} ${file.name}`).sort()).toEqual(
      mine.map((item) => `${item.mimeType} ${item.name}`).sort(),
    );

    const blob = mine.find(
      (item) => !item.mimeType.startsWith("application/vnd.google-apps.") && item.revisions.length === 0,
    );
    const blobFile = files.find(
      (candidate) => candidate.name === blob?.name && candidate.mimeType === blob?.mimeType,
    );
    const media = await drive.files.get(
      { fileId: blobFile?.id as string, alt: "media" },
      { responseType: "arraybuffer" },
    );
    expect(Buffer.from(media.data as unknown as ArrayBuffer).equals(blob?.content as Buffer)).toBe(true);

    const all = plan.driveItems.filter((item) => !item.sharedDriveKey && item.mimeType !== FOLDER);
    const unique = (name: string, owner: string): boolean =>
      all.filter((item) => item.name === name && item.ownerEmail === owner).length === 1;
    const revised =
      all.find(
        (item) =>
          item.revisions.length > 0 && item.permissions.length > 0 && unique(item.name, item.ownerEmail),
      ) ?? all.find((item) => item.revisions.length > 0 && unique(item.name, item.ownerEmail));
    expect(revised).toBeDefined();
    const ownerDrive = harness.drive(revised?.ownerEmail as string);
    const owned = await ownerDrive.files.list({
      pageSize: 1000,
      q: `'${revised?.ownerEmail}' in owners`,
      fields: "files(id,name)",
    });
    const fileId = owned.data.files?.find((file) => file.name === revised?.name)?.id as string;
    const revisionList = await ownerDrive.revisions.list({ fileId });
    expect(revisionList.data.revisions).toHaveLength(1 + (revised?.revisions.length ?? 0));
    const permissions = await ownerDrive.permissions.list({
      fileId,
      fields: "permissions(emailAddress,role,type)",
    });
    for (const planned of revised?.permissions ?? []) {
      if (planned.type === "user") {
        expect(permissions.data.permissions).toContainEqual(
          expect.objectContaining({ emailAddress: planned.emailAddress, role: planned.role }),
        );
      }
    }
    expect(permissions.data.permissions).toContainEqual(
      expect.objectContaining({ emailAddress: revised?.ownerEmail, role: "owner" }),
    );

    const drives = await harness.drive(ADMIN).drives.list({ useDomainAdminAccess: true, pageSize: 100 });
    expect((drives.data.drives ?? []).map((shared) => shared.name).sort()).toEqual(
      plan.sharedDrives.map((shared) => shared.name).sort(),
    );
    const visible = await drive.drives.list({ pageSize: 100 });
    expect((visible.data.drives ?? []).map((shared) => shared.name)).toContain("Finance");
  });
});

describe("generateOrganisation demo profile", () => {
  beforeEach(async () => {
    harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  });

  test("when the demo is generated, then the app is not installed, so delegation for its admin is refused", async () => {
    const result = generateOrganisation(harness.emulator, { profile: "demo" });
    expect(result.users).toBe(8);
    expect(harness.emulator.directory.customer(DEMO_DOMAIN)).toMatchObject({
      licenseState: "UNLICENSED",
      grantedScopes: [],
    });
    const failure = await googleError(
      harness.jwt(`admin@${DEMO_DOMAIN}`, [SCOPES.gmailReadonly]).authorize(),
    );
    expect(failure.status).toBe(401);
    expect(failure.body).toMatchObject({ error: "unauthorized_client" });
    await harness.admin("POST", `/customers/${DEMO_DOMAIN}/app:install`);
    const profile = await harness
      .gmail(`user@${DEMO_DOMAIN}`, [SCOPES.gmailReadonly])
      .users.getProfile({ userId: "me" });
    const plan = planOrganisation({ profile: "demo" });
    expect(profile.data.messagesTotal).toBe(
      plan.users.find((user) => user.email === `user@${DEMO_DOMAIN}`)?.messageCount,
    );
    expect(profile.data.emailAddress).toBe(`user@${DEMO_DOMAIN}`);
  });
});
