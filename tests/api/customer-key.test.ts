/**
 * The customer's Cloud KMS key covers reading the backups (docs/backup-format.md §9.5, §9.7): while the
 * key's version is disabled, search, browse, recovery (and its estimate), export (jobs, direct downloads and
 * download links) answer "Encryption key error"; enabled again, each works again. An export is written under
 * the customer's key (Cloud Storage's customer-managed encryption): its object names the key's version, and
 * a download link handed out before the key was disabled reads nothing while it is (the Storage emulator
 * refuses as Cloud Storage does, docs/storage-emulator.md).
 */
import { BACKUP_FAILURE_REASONS } from "@alpvault/contracts/backups";
import type { ExportJob } from "@alpvault/contracts/exports";
import { assignDefaultPolicy, finishedRun, organizationWithData, runsOf } from "../support/backup-runs";
import { exportsOf } from "../support/exports";
import { createKmsKey, setKmsKeyState } from "../support/kms";
import { setAccount } from "../support/organizations";

jest.setTimeout(240_000);

const KEY_ERROR = { code: 409, message: BACKUP_FAILURE_REASONS["encryption-key-error"] };

type Setup = Awaited<ReturnType<typeof organizationWithData>>;
let setup: Setup;
let keyName: string;

beforeAll(async () => {
  setup = await organizationWithData(3);
  const { call, organization, resource } = setup;
  await setAccount(organization, { planId: "geneva", seats: 10 });
  keyName = await createKmsKey();
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
});

/** Every call that reads the backups, each as the console sends it. */
function readingCalls(exportId: string): { label: string; path: string; body: unknown }[] {
  const base = `/organizations/${setup.organization.organizationId}`;
  const { resourceId } = setup.resource;
  const recovery = {
    resourceId,
    service: "gmail",
    location: "original",
    method: "folder",
    folderName: "Back",
  };
  return [
    { label: "search", path: `${base}/search`, body: { resource: setup.workspace.user } },
    { label: "browse", path: `${base}/resources/${resourceId}/browse`, body: { service: "gmail" } },
    { label: "recovery estimate", path: `${base}/recoveries/estimate`, body: recovery },
    { label: "recovery", path: `${base}/recoveries`, body: recovery },
    { label: "export job", path: `${base}/exports`, body: { resourceId, service: "gmail", format: "mbox" } },
    { label: "direct MBOX", path: `${base}/exports/mbox`, body: { resourceId, service: "gmail" } },
    { label: "download link", path: `${base}/exports/${exportId}/download`, body: undefined },
  ];
}

test("when the customer's key version is disabled, then every call that reads the backups answers 'Encryption key error', and each works again once it is enabled", async () => {
  const exports = exportsOf(setup.call, setup.organization);
  const started = await exports.start({ resourceId: setup.resource.resourceId, service: "gmail" });
  expect(started.status).toBe(202);
  const job = await exports.finished((started.body as ExportJob).exportId);
  expect(job.state).toBe("succeeded");

  await setKmsKeyState(keyName, "DISABLED");
  try {
    for (const { label, path, body } of readingCalls(job.exportId)) {
      const answer = await setup.call(path, { method: "POST", ...(body === undefined ? {} : { body }) });
      expect({ label, status: answer.status, body: answer.body }).toEqual({
        label,
        status: 409,
        body: KEY_ERROR,
      });
    }
  } finally {
    await setKmsKeyState(keyName, "ENABLED");
  }

  const search = await setup.call(`/organizations/${setup.organization.organizationId}/search`, {
    method: "POST",
    body: { resource: setup.workspace.user },
  });
  expect(search.status).toBe(200);
  const download = await exports.download(job.exportId);
  expect(download.bytes.length).toBe(job.progress.bytes);
});

test("when an export is written under the customer's key, then its object names the key's version, and a link handed out before the key is disabled reads nothing until it is enabled again", async () => {
  const exports = exportsOf(setup.call, setup.organization);
  const started = await exports.start({ resourceId: setup.resource.resourceId, service: "gmail" });
  const job = await exports.finished((started.body as ExportJob).exportId);
  expect(job.state).toBe("succeeded");
  const { link, bytes } = await exports.download(job.exportId);
  // The signed URL is path-style: /<bucket>/<object name>.
  const url = new URL(link.url);
  const [bucket, ...name] = url.pathname.slice(1).split("/").map(decodeURIComponent);
  const metadata = await fetch(
    `${url.origin}/storage/v1/b/${encodeURIComponent(bucket!)}/o/${encodeURIComponent(name.join("/"))}`,
  );
  expect(metadata.status).toBe(200);
  expect(((await metadata.json()) as { kmsKeyName?: string }).kmsKeyName).toBe(
    `${keyName}/cryptoKeyVersions/1`,
  );

  await setKmsKeyState(keyName, "DISABLED");
  try {
    const refused = await fetch(link.url);
    expect(refused.status).toBe(400);
    expect(Buffer.from(await refused.arrayBuffer()).includes(bytes.subarray(0, 64))).toBe(false);
  } finally {
    await setKmsKeyState(keyName, "ENABLED");
  }
  const again = await fetch(link.url);
  expect(again.status).toBe(200);
  expect(Buffer.from(await again.arrayBuffer()).equals(bytes)).toBe(true);
});
