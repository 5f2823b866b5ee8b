/**
 * Secrets (encryption keys) through the API: the built-in default key, customer Cloud KMS keys checked
 * against the stack's KMS emulator, the required texts (docs/requirements.md#validation, #who-may-do-what, #errors-and-messages), one audit entry per operation, tenant
 * isolation, and no key material in any answer.
 */
import type { AuditEntry, AuditPage } from "@alpvault/contracts/audit";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import {
  DEFAULT_SECRET_ID,
  KEY_HEALTH_MESSAGES,
  SECRET_MESSAGES,
  type Secret,
  type SecretResponse,
  type SecretsResponse,
} from "@alpvault/contracts/secrets";
import type { ApiAnswer } from "../support/api-client";
import { createKmsKey, setKmsKeyState } from "../support/kms";
import {
  asUser,
  newWorkspace,
  onboarded,
  setAccount,
  withRegionDb,
  type ApiCaller,
} from "../support/organizations";

import { today } from "../support/backup-runs";
jest.setTimeout(60_000);

/** A fresh organisation on a paid plan, and its secrets path. */
async function paidOrganization() {
  const setup = await onboarded();
  await setAccount(setup.organization, { planId: "geneva", seats: 10 });
  return { ...setup, base: `/organizations/${setup.organization.organizationId}/secrets` };
}

async function list(call: ApiCaller, base: string): Promise<Secret[]> {
  const answer = await call(base);
  expect(answer.status).toBe(200);
  return (answer.body as SecretsResponse).secrets;
}

async function add(call: ApiCaller, base: string, body: Record<string, unknown>): Promise<Secret> {
  const answer = await call(base, { method: "POST", body });
  expect(answer).toMatchObject({ status: 201 });
  return (answer.body as SecretResponse).secret;
}

async function keyAuditEntries(call: ApiCaller, organizationId: string): Promise<AuditEntry[]> {
  const answer = await call(
    `/organizations/${organizationId}/audit-logs?start=${today()}&end=${today()}&pageSize=100`,
  );
  expect(answer.status).toBe(200);
  return (answer.body as AuditPage).entries
    .filter((entry) => entry.operation.startsWith("encryption-key."))
    .sort((a, b) => a.date.localeCompare(b.date) || a.operation.localeCompare(b.operation));
}

test("when a fresh organisation lists its secrets, then the built-in default key is there, marked default", async () => {
  const { call, organization } = await onboarded();
  const secrets = await list(call, `/organizations/${organization.organizationId}/secrets`);
  expect(secrets).toEqual([
    expect.objectContaining({
      secretId: DEFAULT_SECRET_ID,
      kind: "default",
      isDefault: true,
      kmsResourceName: null,
      lastCheck: null,
    }),
  ]);
});

test("when the free plan adds a secret, then it is refused with 403 and the plan text, and nothing is added", async () => {
  const { call, organization } = await onboarded();
  const base = `/organizations/${organization.organizationId}/secrets`;
  const keyName = await createKmsKey();
  expect(
    await call(base, { method: "POST", body: { description: "Finance key", kmsResourceName: keyName } }),
  ).toMatchObject({
    status: 403,
    body: { code: 403, message: SECRET_MESSAGES.freePlan },
  });
  expect((await list(call, base)).map((secret) => secret.secretId)).toEqual([DEFAULT_SECRET_ID]);
  expect(await keyAuditEntries(call, organization.organizationId)).toEqual([]);
});

test("when the description is missing or the resource name is malformed, then 400 with the browser's texts", async () => {
  const { call, base } = await paidOrganization();
  const keyName = await createKmsKey();
  const cases: [Record<string, unknown>, string][] = [
    [{ kmsResourceName: keyName }, SECRET_MESSAGES.descriptionRequired],
    [{ description: "   ", kmsResourceName: keyName }, SECRET_MESSAGES.descriptionRequired],
    [{ description: "Finance key" }, SECRET_MESSAGES.kmsResourceNameRequired],
    [
      { description: "Finance key", kmsResourceName: "projects/p/keys/k" },
      SECRET_MESSAGES.kmsResourceNameInvalid,
    ],
    [
      { description: "Finance key", kmsResourceName: `${keyName}/cryptoKeyVersions/1` },
      SECRET_MESSAGES.kmsResourceNameInvalid,
    ],
    [{ description: "Finance key", kmsResourceName: 42 }, SECRET_MESSAGES.kmsResourceNameRequired],
  ];
  for (const [body, message] of cases) {
    expect(await call(base, { method: "POST", body })).toMatchObject({
      status: 400,
      body: { code: 400, message },
    });
  }
  expect((await list(call, base)).length).toBe(1);
});

test("when a paid organisation adds, edits, sets default and deletes a key, then each answer is right and each operation leaves its audit entries", async () => {
  const { call, base, workspace, organization } = await paidOrganization();
  const keyName = await createKmsKey();
  const otherKey = await createKmsKey();

  const secret = await add(call, base, { description: " Finance key ", kmsResourceName: keyName });
  expect(secret).toMatchObject({
    description: "Finance key",
    kind: "cloud-kms",
    kmsResourceName: keyName,
    isDefault: false,
    lastCheck: { health: "ok", message: null },
  });
  expect(
    await call(base, { method: "POST", body: { description: "Again", kmsResourceName: keyName } }),
  ).toMatchObject({
    status: 409,
    body: { message: SECRET_MESSAGES.alreadyAdded },
  });
  let secrets = await list(call, base);
  expect(secrets.map((entry) => [entry.secretId, entry.isDefault])).toEqual([
    [DEFAULT_SECRET_ID, true],
    [secret.secretId, false],
  ]);

  const renamed = await call(`${base}/${secret.secretId}`, {
    method: "PATCH",
    body: { description: "Finance 2026" },
  });
  expect(renamed).toMatchObject({
    status: 200,
    body: { secret: { description: "Finance 2026", kmsResourceName: keyName } },
  });
  const moved = await call(`${base}/${secret.secretId}`, {
    method: "PATCH",
    body: { kmsResourceName: otherKey },
  });
  expect(moved).toMatchObject({
    status: 200,
    body: { secret: { kmsResourceName: otherKey, lastCheck: { health: "ok" } } },
  });
  expect(
    await call(`${base}/${secret.secretId}`, { method: "PATCH", body: { description: "" } }),
  ).toMatchObject({
    status: 400,
    body: { message: SECRET_MESSAGES.descriptionRequired },
  });

  const defaulted = await call(`${base}/${secret.secretId}/default`, { method: "POST" });
  expect(defaulted.status).toBe(200);
  secrets = (defaulted.body as SecretsResponse).secrets;
  expect(secrets.map((entry) => [entry.secretId, entry.isDefault])).toEqual([
    [secret.secretId, true],
    [DEFAULT_SECRET_ID, false],
  ]);
  // A second key made default takes over: exactly one default at a time.
  const second = await add(call, base, { description: "Second key", kmsResourceName: keyName });
  const switched = (await call(`${base}/${second.secretId}/default`, { method: "POST" }))
    .body as SecretsResponse;
  expect(switched.secrets.filter((entry) => entry.isDefault).map((entry) => entry.secretId)).toEqual([
    second.secretId,
  ]);

  // Deleting the default customer key makes the built-in key the default again.
  expect(await call(`${base}/${second.secretId}`, { method: "DELETE" })).toMatchObject({ status: 204 });
  expect(await call(`${base}/${secret.secretId}`, { method: "DELETE" })).toMatchObject({ status: 204 });
  expect(await call(`${base}/${secret.secretId}`, { method: "DELETE" })).toMatchObject({
    status: 404,
    body: { message: SECRET_MESSAGES.secretNotFound },
  });
  secrets = await list(call, base);
  expect(secrets.map((entry) => [entry.secretId, entry.isDefault])).toEqual([[DEFAULT_SECRET_ID, true]]);

  const entries = await keyAuditEntries(call, organization.organizationId);
  const summary = entries.map((entry) => [entry.operation, entry.object]);
  expect(summary).toEqual(
    expect.arrayContaining([
      ["encryption-key.added", "Finance key"],
      ["encryption-key.checked", "Finance key"],
      ["encryption-key.updated", "Finance 2026"],
      ["encryption-key.checked", "Finance 2026"],
      ["encryption-key.default-updated", "Finance 2026"],
      ["encryption-key.added", "Second key"],
      ["encryption-key.checked", "Second key"],
      ["encryption-key.default-updated", "Second key"],
      ["encryption-key.deleted", "Second key"],
      ["encryption-key.deleted", "Finance 2026"],
    ]),
  );
  const count = (operation: string) => entries.filter((entry) => entry.operation === operation).length;
  expect(count("encryption-key.added")).toBe(2);
  expect(count("encryption-key.updated")).toBe(2); // description, then key
  expect(count("encryption-key.checked")).toBe(3); // add, add, key change (a description edit checks nothing)
  expect(count("encryption-key.default-updated")).toBe(2);
  expect(count("encryption-key.deleted")).toBe(2);
  expect(entries.length).toBe(11);
  for (const entry of entries) expect(entry).toMatchObject({ actor: workspace.admin, failureReason: null });
});

test("when a key protects backups, then deleting it is refused with 409 and the required text, and it stays", async () => {
  const { call, base, organization } = await paidOrganization();
  const secret = await add(call, base, {
    description: "Protects backups",
    kmsResourceName: await createKmsKey(),
  });
  await withRegionDb("region-ch", async (db) => {
    await db
      .collection("organizations")
      .doc(organization.organizationId)
      .collection("dataKeys")
      .add({
        secretId: secret.secretId,
        wrappedKey: Buffer.from("wrapped").toString("base64"),
        createdAt: new Date().toISOString(),
      });
  });
  expect(await call(`${base}/${secret.secretId}`, { method: "DELETE" })).toMatchObject({
    status: 409,
    body: { code: 409, message: "This secret cannot be deleted as it has backup linked." },
  });
  expect((await list(call, base)).map((entry) => entry.secretId)).toContain(secret.secretId);
  const operations = (await keyAuditEntries(call, organization.organizationId)).map(
    (entry) => entry.operation,
  );
  expect(operations).not.toContain("encryption-key.deleted");
});

test("when the built-in default key is deleted or edited, then it is refused and stays the default", async () => {
  const { call, base } = await paidOrganization();
  for (const [method, body] of [
    ["DELETE", undefined],
    ["PATCH", { description: "Mine now" }],
  ] as const) {
    expect(await call(`${base}/${DEFAULT_SECRET_ID}`, { method, body })).toMatchObject({
      status: 400,
      body: { code: 400, message: SECRET_MESSAGES.defaultKeyReadOnly },
    });
  }
  expect(await list(call, base)).toEqual([
    expect.objectContaining({ secretId: DEFAULT_SECRET_ID, isDefault: true }),
  ]);
});

test("when a disabled KMS key is added, then the answer reports it disabled, it is marked, and it cannot become the default", async () => {
  const { call, base, organization } = await paidOrganization();
  const keyName = await createKmsKey();
  await setKmsKeyState(keyName, "DISABLED");
  const secret = await add(call, base, { description: "Disabled key", kmsResourceName: keyName });
  expect(secret.lastCheck).toMatchObject({ health: "disabled", message: KEY_HEALTH_MESSAGES.disabled });
  expect(
    (await list(call, base)).find((entry) => entry.secretId === secret.secretId)?.lastCheck,
  ).toMatchObject({
    health: "disabled",
  });
  const refused = await call(`${base}/${secret.secretId}/default`, { method: "POST" });
  expect(refused.status).toBe(400);
  expect((refused.body as { message: string }).message).toContain(SECRET_MESSAGES.notUsableAsDefault);
  const checked = (await keyAuditEntries(call, organization.organizationId)).find(
    (entry) => entry.operation === "encryption-key.checked",
  );
  expect(checked).toMatchObject({ object: "Disabled key", failureReason: KEY_HEALTH_MESSAGES.disabled });
});

test("when a key is disabled, destroyed or missing after it was added, then check reports it, marks the secret and audits it", async () => {
  const { call, base, organization } = await paidOrganization();
  const keyName = await createKmsKey();
  const secret = await add(call, base, { description: "Later disabled", kmsResourceName: keyName });
  expect(secret.lastCheck?.health).toBe("ok");

  await setKmsKeyState(keyName, "DISABLED");
  const disabled = await call(`${base}/${secret.secretId}:check`, { method: "POST" });
  expect(disabled).toMatchObject({
    status: 200,
    body: { secret: { lastCheck: { health: "disabled", message: KEY_HEALTH_MESSAGES.disabled } } },
  });
  expect(
    (await list(call, base)).find((entry) => entry.secretId === secret.secretId)?.lastCheck?.health,
  ).toBe("disabled");

  await setKmsKeyState(keyName, "ENABLED");
  expect(await call(`${base}/${secret.secretId}/check`, { method: "POST" })).toMatchObject({
    status: 200,
    body: { secret: { lastCheck: { health: "ok", message: null } } },
  });

  await setKmsKeyState(keyName, "DESTROYED");
  expect(await call(`${base}/${secret.secretId}:check`, { method: "POST" })).toMatchObject({
    body: { secret: { lastCheck: { health: "destroyed", message: KEY_HEALTH_MESSAGES.destroyed } } },
  });

  const missing = await add(call, base, {
    description: "Typo",
    kmsResourceName: keyName.replace(/cryptoKeys\/.*$/, "cryptoKeys/no-such-key"),
  });
  expect(missing.lastCheck).toMatchObject({ health: "not-found", message: KEY_HEALTH_MESSAGES["not-found"] });

  const checks = (await keyAuditEntries(call, organization.organizationId))
    .filter((entry) => entry.operation === "encryption-key.checked")
    .map((entry) => [entry.object, entry.failureReason]);
  expect(checks).toEqual(
    expect.arrayContaining([
      ["Later disabled", null],
      ["Later disabled", KEY_HEALTH_MESSAGES.disabled],
      ["Later disabled", KEY_HEALTH_MESSAGES.destroyed],
      ["Typo", KEY_HEALTH_MESSAGES["not-found"]],
    ]),
  );
  expect(checks.length).toBe(5); // add, check, check, check, add
  expect(await call(`${base}/${DEFAULT_SECRET_ID}:check`, { method: "POST" })).toMatchObject({ status: 400 });
});

test("when another organisation's admin calls any secrets route, then 404 and nothing changes", async () => {
  const { call, base } = await paidOrganization();
  const secret = await add(call, base, { description: "Ours", kmsResourceName: await createKmsKey() });
  const stranger = await newWorkspace({ installed: true });
  const other = await asUser(stranger.admin);
  const calls: [string, string, unknown][] = [
    ["GET", base, undefined],
    ["POST", base, { description: "Theirs", kmsResourceName: await createKmsKey() }],
    ["PATCH", `${base}/${secret.secretId}`, { description: "Taken" }],
    ["DELETE", `${base}/${secret.secretId}`, undefined],
    ["POST", `${base}/${secret.secretId}:check`, undefined],
    ["POST", `${base}/${secret.secretId}/default`, undefined],
  ];
  for (const [method, path, body] of calls) {
    expect(await other(path, { method, body })).toMatchObject({
      status: 404,
      body: { code: 404, message: ORGANIZATION_MESSAGES.organizationNotFound },
    });
  }
  const secrets = await list(call, base);
  expect(secrets.map((entry) => [entry.secretId, entry.description, entry.isDefault])).toEqual([
    [DEFAULT_SECRET_ID, expect.any(String), true],
    [secret.secretId, "Ours", false],
  ]);
});

test("when keys are added, checked, listed and linked to backups, then no answer contains key material", async () => {
  const { call, base, organization } = await paidOrganization();
  const answers: ApiAnswer[] = [];
  const keep = async (promise: Promise<ApiAnswer>) => {
    const answer = await promise;
    answers.push(answer);
    return answer;
  };
  const keyName = await createKmsKey();
  const added = await keep(
    call(base, { method: "POST", body: { description: "Vault key", kmsResourceName: keyName } }),
  );
  const { secretId } = (added.body as SecretResponse).secret;
  const wrappedKey = Buffer.from("wrapped data key bytes, base64 in the store").toString("base64");
  await withRegionDb("region-ch", (db) =>
    db
      .collection("organizations")
      .doc(organization.organizationId)
      .collection("dataKeys")
      .add({ secretId, wrappedKey, createdAt: new Date().toISOString() }),
  );
  await keep(call(`${base}/${secretId}:check`, { method: "POST" }));
  await keep(call(`${base}/${secretId}/default`, { method: "POST" }));
  await keep(call(`${base}/${secretId}`, { method: "PATCH", body: { description: "Vault key 2" } }));
  await keep(call(`${base}/${secretId}`, { method: "DELETE" }));
  await keep(call(base));
  expect(answers.map((answer) => answer.status)).toEqual([201, 200, 200, 200, 409, 200]);
  for (const answer of answers) {
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(wrappedKey);
    expect(text).not.toMatch(/plaintext|ciphertext|wrappedKey|material|privateKey/i);
  }
});
