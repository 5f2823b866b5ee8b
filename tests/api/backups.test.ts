/**
 * Backups in the running product: a policy assignment or "Backup now" writes a run and enqueues its task,
 * the Functions emulator's task queue runs the worker, and the worker backs the resource up with the
 * production code (delegated Google clients → Workspace emulator, Cloud Storage client → Storage emulator,
 * Firestore catalog). Then every message and file is in the catalog and decrypts to its source bytes, the
 * resource's status and the organisation's totals follow, the audit log says so, and nothing runs twice.
 */
import { BACKUP_MESSAGES, type BackupNowResponse } from "@alpvault/contracts/backups";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { STORAGE_TEXTS } from "@alpvault/contracts/billing";
import { testMessage } from "../../emulators/workspace/src/index";
import { decodeDataKeyRecord, deriveKeys, unwrapDataKey } from "../../functions/src/engine/format/keys";
import { kmsClient, kmsService } from "../../functions/src/secrets/kms";
import { restoreVersion } from "../support/backup";
import { createKmsKey, setKmsKeyState } from "../support/kms";
import { onboarded, setAccount, withRegionDb, type ApiCaller } from "../support/organizations";
import {
  REGION_DB,
  assignDefaultPolicy,
  auditOperations,
  backupNow,
  blobStore,
  enqueueTask,
  finishedRun,
  itemsOf,
  objectScope,
  organizationDoc,
  organizationWithData,
  resourceOf,
  resourcesOf,
  runsOf,
  type StoredRun,
} from "../support/backup-runs";
import { dispatch, drainTasks, pendingTasks } from "../support/background";
import { workspaceAdmin } from "../support/workspace";
import { cloudKmsKeyWrapper } from "../../functions/src/secrets/key-wrapper";

jest.setTimeout(180_000);

describe("a mailbox's first backup, started by assigning a policy", () => {
  let setup: Awaited<ReturnType<typeof organizationWithData>>;
  let run: StoredRun;

  beforeAll(async () => {
    setup = await organizationWithData(12);
    await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
    const runs = await runsOf(setup.organization, setup.resource.resourceId);
    expect(runs).toHaveLength(1);
    run = await finishedRun(setup.organization, setup.resource.resourceId, runs[0]!.runId);
  });

  test("when the run ends, then it succeeded and counted every message and the file", () => {
    expect(run).toMatchObject({ state: "succeeded", trigger: "policy-assigned" });
    expect(run.progress?.items).toBe(setup.raws.size + 1);
  });

  test("when the catalog is read, then every message and the file are there once and decrypt to exactly the source bytes", async () => {
    const items = await itemsOf(setup.organization, setup.resource.resourceId);
    const mail = items.filter((item) => item.kind === "gmail-message");
    const files = items.filter((item) => item.kind === "drive-file");
    expect(mail.map((item) => item.sourceId).sort()).toEqual([...setup.raws.keys()].sort());
    expect(files.map((item) => item.sourceId)).toEqual([setup.file.id]);
    const scope = await objectScope(setup.organization);
    const store = blobStore();
    for (const item of mail) {
      const restored = await restoreVersion(store, scope, item.current);
      expect(restored.equals(setup.raws.get(item.sourceId)!)).toBe(true);
    }
    expect((await restoreVersion(store, scope, files[0]!.current)).equals(setup.file.bytes)).toBe(true);
  });

  test("when the bucket is read, then no subject or body text appears in any object", async () => {
    const store = blobStore();
    const names: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await store.list(
        `o/${setup.organization.organizationId}/`,
        pageToken ? { pageToken } : {},
      );
      names.push(...page.names);
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      const body = (await store.get(name)).toString("latin1");
      expect(body).not.toContain("Quarterly figures");
      expect(body).not.toContain("Confidential body");
      expect(body).not.toContain("Budget 2027");
    }
  });

  test("when the resources are listed, then the mailbox shows its last backup, its sizes and no backup in progress", async () => {
    const resource = await resourceOf(setup.call, setup.organization, setup.workspace.user);
    const mailBytes = [...setup.raws.values()].reduce((sum, raw) => sum + raw.length, 0);
    expect(resource.lastBackupAt).not.toBeNull();
    expect(resource.mailBackupBytes).toBe(mailBytes);
    expect(resource.driveBackupBytes).toBe(setup.file.bytes.length);
    expect(resource.activeBackup).toBeNull();
    expect(resource.lastBackupFailure).toBeNull();
    const analytics = await setup.call(`/organizations/${setup.organization.organizationId}/analytics`);
    expect(analytics.body).toMatchObject({ emails: setup.raws.size, files: 1 });
  });

  test("when the audit log is read, then the backup started and finished once each", async () => {
    const operations = (await auditOperations(setup.call, setup.organization)).filter((entry) =>
      entry.operation.startsWith("backup."),
    );
    expect(operations).toEqual([
      { operation: "backup.finished", object: setup.workspace.user, failureReason: null },
      { operation: "backup.started", object: setup.workspace.user, failureReason: null },
    ]);
  });

  test("when Backup now follows changes at the source, then the incremental run stores the new message, marks the deleted one and backs up nothing else", async () => {
    const { call, organization, resource, workspace } = setup;
    const [deletedId] = [...setup.raws.keys()];
    await workspaceAdmin("DELETE", `/users/${workspace.user}/gmail/messages/${deletedId}`);
    const raw = testMessage({
      subject: "Late addition",
      to: workspace.user,
      messageId: `late.${organization.organizationId}@x.test`,
    });
    const added = await workspaceAdmin<{ id: string }>("POST", `/users/${workspace.user}/gmail/messages`, {
      raw: raw.toString("base64"),
      encoding: "base64",
    });
    const first = await backupNow(call, organization, resource.resourceId);
    const second = await backupNow(call, organization, resource.resourceId);
    expect(first.status).toBe(202);
    const started = first.body as BackupNowResponse;
    expect(started.created).toBe(true);
    // Asked again while it is active: the same run, not a second one.
    expect(second.status).toBe(202);
    expect((second.body as BackupNowResponse).runId).toBe(started.runId);
    const incremental = await finishedRun(organization, resource.resourceId, started.runId);
    expect(incremental).toMatchObject({ state: "succeeded", trigger: "backup-now" });
    expect(incremental.progress?.items).toBe(1);
    const items = await itemsOf(organization, resource.resourceId);
    expect(items).toHaveLength(setup.raws.size + 2);
    const byId = new Map(items.map((item) => [item.sourceId, item]));
    expect(byId.get(deletedId!)?.deletedAtSource).not.toBeNull();
    const scope = await objectScope(organization);
    expect((await restoreVersion(blobStore(), scope, byId.get(added.body.id)!.current)).equals(raw)).toBe(
      true,
    );
  });
});

describe("scheduling and repeated deliveries", () => {
  test("when a protected resource's scheduled backup is due, then the dispatcher runs it and moves the next one to the policy's next slot", async () => {
    const { call, organization, workspace } = await onboarded();
    const user = await resourceOf(call, organization, workspace.user);
    const due = new Date(Date.now() - 60_000).toISOString();
    await withRegionDb(REGION_DB, (db) =>
      organizationDoc(organization)(db).collection("resources").doc(user.resourceId).update({
        policyId: "default",
        policyName: "Default policy",
        protected: true,
        nextBackupAt: due,
      }),
    );
    expect(await dispatch(organization.organizationId)).toMatchObject({ backupsScheduled: 1 });
    const runs = await runsOf(organization, user.resourceId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: "schedule" });
    expect(await finishedRun(organization, user.resourceId, runs[0]!.runId)).toMatchObject({
      state: "succeeded",
    });
    const after = await resourceOf(call, organization, workspace.user);
    expect(Date.parse(after.nextBackupAt ?? "")).toBeGreaterThan(Date.now());
    expect(after.lastBackupAt).not.toBeNull();
    // Not due any more: the dispatcher's next run starts no second one.
    expect(await dispatch(organization.organizationId)).toMatchObject({ backupsScheduled: 0 });
    await drainTasks();
    expect(await runsOf(organization, user.resourceId)).toHaveLength(1);
  });

  test("when a finished run's task is delivered again, then nothing is backed up, audited or alerted twice", async () => {
    const setup = await organizationWithData(3);
    const { call, organization, resource } = setup;
    await assignDefaultPolicy(call, organization, resource.resourceId);
    const [started] = await runsOf(organization, resource.resourceId);
    const run = await finishedRun(organization, resource.resourceId, started!.runId);
    expect(run.state).toBe("succeeded");
    const itemsBefore = await itemsOf(organization, resource.resourceId);
    const auditBefore = await auditOperations(call, organization);
    await enqueueTask({
      organizationId: organization.organizationId,
      resourceId: resource.resourceId,
      runId: started!.runId,
    });
    expect((await drainTasks()).map((delivery) => delivery.outcome)).toEqual(["done"]);
    const [again] = (await runsOf(organization, resource.resourceId)).filter(
      (candidate) => candidate.runId === started!.runId,
    );
    expect(again).toEqual(run);
    expect(await itemsOf(organization, resource.resourceId)).toEqual(itemsBefore);
    expect(await auditOperations(call, organization)).toEqual(auditBefore);
  });
});

describe("item errors", () => {
  test("when Google refuses one message for good, then the backup records it and the next backup fetches it again", async () => {
    const setup = await organizationWithData(3);
    const { call, organization, resource, workspace } = setup;
    const fault = await workspaceAdmin("POST", "/faults", {
      method: "gmail.users.messages.get",
      user: workspace.user,
      action: { kind: "error", status: 400 },
      times: 1,
    });
    expect(fault.status).toBe(200);
    await assignDefaultPolicy(call, organization, resource.resourceId);
    const [first] = await runsOf(organization, resource.resourceId);
    const failedRun = await finishedRun(organization, resource.resourceId, first!.runId);
    expect(failedRun).toMatchObject({ state: "succeeded", itemErrorCount: 1 });
    expect(
      (await itemsOf(organization, resource.resourceId)).filter((item) => item.kind === "gmail-message"),
    ).toHaveLength(2);

    const next = (await backupNow(call, organization, resource.resourceId)).body as BackupNowResponse;
    expect(await finishedRun(organization, resource.resourceId, next.runId)).toMatchObject({
      state: "succeeded",
      itemErrorCount: 0,
    });
    const mail = (await itemsOf(organization, resource.resourceId)).filter(
      (item) => item.kind === "gmail-message",
    );
    expect(mail.map((item) => item.sourceId).sort()).toEqual([...setup.raws.keys()].sort());
  });
});

describe("backups under the customer's Cloud KMS key", () => {
  test("when a customer key is the default, then backups are wrapped by it, the key cannot be deleted, and once it is disabled the next backup fails with 'Encryption key error'", async () => {
    const setup = await organizationWithData(3);
    const { call, organization, resource, workspace } = setup;
    await setAccount(organization, { planId: "geneva", seats: 10 });
    const keyName = await createKmsKey();
    const secrets = `/organizations/${organization.organizationId}/secrets`;
    const added = await call(secrets, {
      method: "POST",
      body: { description: "Backups key", kmsResourceName: keyName },
    });
    expect(added.status).toBe(201);
    const { secretId } = (added.body as { secret: { secretId: string } }).secret;
    expect((await call(`${secrets}/${secretId}/default`, { method: "POST" })).status).toBe(200);

    await assignDefaultPolicy(call, organization, resource.resourceId);
    const [first] = await runsOf(organization, resource.resourceId);
    expect(await finishedRun(organization, resource.resourceId, first!.runId)).toMatchObject({
      state: "succeeded",
    });

    // The data key is wrapped by the customer's key: Cloud KMS unwraps it, and every message restores.
    const [record] = await withRegionDb(REGION_DB, async (db) =>
      (await organizationDoc(organization)(db).collection("dataKeys").get()).docs.map((doc) =>
        decodeDataKeyRecord(doc.data()),
      ),
    );
    expect(record).toMatchObject({ secretId, state: "active" });
    const kms = kmsService(kmsClient({ emulatorHost: process.env.KMS_EMULATOR_HOST }));
    const key = await unwrapDataKey(cloudKmsKeyWrapper(kms, keyName), organization.organizationId, record!);
    const scope = { organizationId: organization.organizationId, keys: deriveKeys(key) };
    for (const item of await itemsOf(organization, resource.resourceId)) {
      if (item.kind !== "gmail-message") continue;
      expect(
        (await restoreVersion(blobStore(), scope, item.current)).equals(setup.raws.get(item.sourceId)!),
      ).toBe(true);
    }

    // The key protects backups now.
    expect(await call(`${secrets}/${secretId}`, { method: "DELETE" })).toMatchObject({
      status: 409,
      body: { code: 409, message: "This secret cannot be deleted as it has backup linked." },
    });

    // The customer disables it: the next backup cannot get its data key.
    await setKmsKeyState(keyName, "DISABLED");
    const next = (await backupNow(call, organization, resource.resourceId)).body as BackupNowResponse;
    expect(await finishedRun(organization, resource.resourceId, next.runId)).toMatchObject({
      state: "failed",
      failureReason: "encryption-key-error",
    });
    expect(await auditOperations(call, organization)).toContainEqual({
      operation: "backup.failed",
      object: workspace.user,
      failureReason: "Encryption key error",
    });
  });
});

describe("retention and garbage collection, scheduled", () => {
  test("when an organisation is a day old, then the dispatcher has its garbage collected once that day", async () => {
    const setup = await organizationWithData(2);
    await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
    const [run] = await runsOf(setup.organization, setup.resource.resourceId);
    expect(await finishedRun(setup.organization, setup.resource.resourceId, run!.runId)).toMatchObject({
      state: "succeeded",
    });
    const gcDoc = () =>
      withRegionDb(REGION_DB, async (db) =>
        (await organizationDoc(setup.organization)(db).collection("meta").doc("gc").get()).data(),
      );
    expect(await gcDoc()).toBeUndefined();
    await withRegionDb("(default)", (db) =>
      db
        .collection("organizations")
        .doc(setup.organization.organizationId)
        .update({ createdAt: new Date(Date.now() - 2 * 24 * 3600 * 1000).toISOString() }),
    );
    await dispatch(setup.organization.organizationId);
    expect(pendingTasks("collectBackupGarbage")).toHaveLength(1);
    await drainTasks();
    const gc = await gcDoc();
    // Everything is within retention: nothing is pruned or swept, every chunk is live.
    expect(gc?.lastResult).toMatchObject({ outcome: "done", versionsPruned: 0, chunksDeleted: 0 });
    expect(gc?.lastResult.liveChunks).toBeGreaterThan(0);
    const scope = await objectScope(setup.organization);
    for (const item of await itemsOf(setup.organization, setup.resource.resourceId)) {
      const source = item.kind === "drive-file" ? setup.file.bytes : setup.raws.get(item.sourceId)!;
      expect((await restoreVersion(blobStore(), scope, item.current)).equals(source)).toBe(true);
    }
    // Once that day: the dispatcher's next run enqueues no second collection.
    await dispatch(setup.organization.organizationId);
    expect(pendingTasks("collectBackupGarbage")).toEqual([]);
  });
});

describe("refusals and failures", () => {
  test("when Backup now names an unknown resource, a resource without a policy or a suspended one, then the answer says why and no run is written", async () => {
    const { call, organization, workspace } = await onboarded();
    const unknown = await backupNow(call, organization, "user-nobody");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 404, message: BACKUP_MESSAGES.resourceNotFound });
    const user = await resourceOf(call, organization, workspace.user);
    const noPolicy = await backupNow(call, organization, user.resourceId);
    expect(noPolicy.status).toBe(409);
    expect(noPolicy.body).toEqual({ code: 409, message: BACKUP_MESSAGES.noPolicy });
    const suspended = await resourceOf(call, organization, workspace.suspended);
    await withRegionDb(REGION_DB, (db) =>
      organizationDoc(organization)(db)
        .collection("resources")
        .doc(suspended.resourceId)
        .update({ policyId: "default" }),
    );
    const refused = await backupNow(call, organization, suspended.resourceId);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: 409, message: BACKUP_MESSAGES.unavailable });
    expect(await runsOf(organization, user.resourceId)).toEqual([]);
  });

  test("when backups are stopped after a graceful period, then Backup now is refused", async () => {
    const { call, organization, workspace } = await onboarded();
    const user = await resourceOf(call, organization, workspace.user);
    await withRegionDb(REGION_DB, (db) =>
      organizationDoc(organization)(db)
        .collection("resources")
        .doc(user.resourceId)
        .update({ policyId: "default" }),
    );
    await setAccount(organization, {
      graceful: {
        state: "stopped",
        startedAt: "2026-01-01T00:00:00.000Z",
        stopsAt: "2026-01-15T00:00:00.000Z",
      },
    });
    const refused = await backupNow(call, organization, user.resourceId);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: 409, message: BACKUP_MESSAGES.backupsStopped });
  });

  test("when another organisation's admin asks for a backup, then nothing is revealed or started", async () => {
    const first = await onboarded();
    const other = await onboarded();
    const user = await resourceOf(first.call, first.organization, first.workspace.user);
    const answer = await backupNow(other.call, first.organization, user.resourceId);
    expect([403, 404]).toContain(answer.status);
    expect(await runsOf(first.organization, user.resourceId)).toEqual([]);
  });

  /**
   * With the organisation's first shared drive holding `bytes` of backups, the first backup of `email`
   * (the default policy starts it), once ended.
   */
  async function firstBackupStoring(
    call: ApiCaller,
    organization: OrganizationSummary,
    email: string,
    bytes: number,
  ) {
    const drive = (await resourcesOf(call, organization)).find(
      (resource) => resource.type === "shared_drive",
    )!;
    await withRegionDb(REGION_DB, (db) =>
      organizationDoc(organization)(db)
        .collection("resources")
        .doc(drive.resourceId)
        .update({ driveBackupBytes: bytes }),
    );
    const user = await resourceOf(call, organization, email);
    await assignDefaultPolicy(call, organization, user.resourceId);
    const [pending] = await runsOf(organization, user.resourceId);
    return finishedRun(organization, user.resourceId, pending!.runId);
  }

  test("when the organisation's storage is over its plan's maximum, then the run fails with 'Storage full', audited and alerted", async () => {
    const { call, organization, workspace } = await onboarded();
    const run = await firstBackupStoring(call, organization, workspace.user, 1024 ** 4);
    expect(run).toMatchObject({ state: "failed", failureReason: "storage-full" });
    const operations = await auditOperations(call, organization);
    expect(operations).toContainEqual({
      operation: "backup.failed",
      object: workspace.user,
      failureReason: "Storage full",
    });
    const resource = await resourceOf(call, organization, workspace.user);
    expect(resource.lastBackupFailure).toBe("storage-full");
    const alerts = await call(`/organizations/${organization.organizationId}/alerts`);
    expect((alerts.body as { alerts: { kind: string; message: string }[] }).alerts).toContainEqual(
      expect.objectContaining({
        kind: "backup-failed",
        message: `Backup of ${workspace.user} failed: Storage full`,
      }),
    );
  });

  test("when the storage is at its maximum on a paid plan with auto-add storage on, then packs enough for it are added, audited and alerted, and the backup runs", async () => {
    const { call, organization, workspace } = await onboarded();
    const id = organization.organizationId;
    // Geneva: 50 GB per seat; three seats and no pack allow 150 GB.
    await setAccount(organization, { planId: "geneva", seats: 3, storagePacks: 0 });
    const setting = await call(`/organizations/${id}/settings/auto-add-storage`, {
      method: "PUT",
      body: { enabled: true },
    });
    expect(setting).toMatchObject({ status: 200, body: { autoAddStorage: true } });
    const run = await firstBackupStoring(call, organization, workspace.user, 180 * 1024 ** 3);
    expect(run).toMatchObject({ state: "succeeded" });
    expect(await auditOperations(call, organization)).toContainEqual(
      expect.objectContaining({
        operation: "storage-packs.added",
        object: STORAGE_TEXTS.addedObject(0, 1),
      }),
    );
    const alerts = await call(`/organizations/${id}/alerts`);
    expect((alerts.body as { alerts: { kind: string; message: string }[] }).alerts).toContainEqual(
      expect.objectContaining({ kind: "billing", message: STORAGE_TEXTS.addedAlert(1, 1) }),
    );
    const subscriptionId = organization.subscriptions[0]!.subscriptionId;
    const subscription = await call(`/organizations/${id}/subscriptions/${subscriptionId}?fields=storage`);
    expect((subscription.body as { storage: { maximum: number } }).storage.maximum).toBe(250 * 1024 ** 3);
  });
});
