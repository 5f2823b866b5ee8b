/**
 * Secrets (docs/requirements.md#data-the-console-shows, #validation, #who-may-do-what, #errors-and-messages): the built-in default key and customers' Cloud KMS keys. Rules: the
 * built-in key is always listed and never changed; free plans cannot add keys; exactly one default; a key
 * is checked against Cloud KMS on add, on a change of its resource name and on demand, and the result is
 * kept on the secret; a key that protects backups cannot be deleted. Every change and its audit entry are
 * one transaction. No key material passes through here: Cloud KMS keeps the keys.
 */
import {
  DEFAULT_SECRET_ID,
  SECRET_MESSAGES,
  descriptionError,
  kmsResourceNameError,
  type KeyCheck,
  type Secret,
  type SecretsResponse,
} from "@alpvault/contracts/secrets";
import { FREE_PLAN, type PlanId } from "@alpvault/contracts/plans";
import { auditedChange } from "../audit/service";
import { DomainError } from "../lib/errors";
import type { Kms } from "./kms";
import * as repo from "./repo";
import type { Scope, StoredSecret } from "./repo";
import { secretProtectsBackups } from "../backups/in-transaction";

export const BUILT_IN_DESCRIPTION = "Alpvault default key (AES-256)";

function builtInSecret(isDefault: boolean): Secret {
  return {
    secretId: DEFAULT_SECRET_ID,
    description: BUILT_IN_DESCRIPTION,
    kind: "default",
    kmsResourceName: null,
    isDefault,
    lastCheck: null,
    createdAt: null,
    updatedAt: null,
  };
}

function toSecret(stored: StoredSecret): Secret {
  return {
    secretId: stored.secretId,
    description: stored.description,
    kind: "cloud-kms",
    kmsResourceName: stored.kmsResourceName,
    isDefault: stored.isDefault,
    lastCheck: stored.lastCheck,
    createdAt: stored.createdAt || null,
    updatedAt: stored.updatedAt || null,
  };
}

/** The default first, then the built-in key, then customer keys oldest first. */
export function orderSecrets(stored: StoredSecret[]): Secret[] {
  const customerDefault = stored.some((secret) => secret.isDefault);
  const list = [builtInSecret(!customerDefault), ...stored.map(toSecret)];
  const rank = (secret: Secret) => (secret.isDefault ? 0 : secret.kind === "default" ? 1 : 2);
  return list.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (a.createdAt ?? "").localeCompare(b.createdAt ?? "") ||
      a.secretId.localeCompare(b.secretId),
  );
}

export async function listSecrets(organization: Scope & { planId: PlanId }): Promise<SecretsResponse> {
  return { secrets: orderSecrets(await repo.listSecrets(organization)), planId: organization.planId };
}

/** Reads and checks a create body; the first broken rule is a 400 with the browser's text. */
export function parseCreate(body: unknown): {
  description: string;
  kmsResourceName: string;
  isDefault: boolean;
} {
  const value = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const error = descriptionError(value.description) ?? kmsResourceNameError(value.kmsResourceName);
  if (error) throw DomainError.invalid(error);
  if (value.isDefault !== undefined && typeof value.isDefault !== "boolean") {
    throw DomainError.invalid("isDefault must be true or false");
  }
  return {
    description: (value.description as string).trim(),
    kmsResourceName: (value.kmsResourceName as string).trim(),
    isDefault: value.isDefault === true,
  };
}

/** Reads and checks an update body: the fields given must be valid, at least one must be given. */
export function parseUpdate(body: unknown): { description?: string; kmsResourceName?: string } {
  const value = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const change: { description?: string; kmsResourceName?: string } = {};
  if (value.description !== undefined) {
    const error = descriptionError(value.description);
    if (error) throw DomainError.invalid(error);
    change.description = (value.description as string).trim();
  }
  if (value.kmsResourceName !== undefined) {
    const error = kmsResourceNameError(value.kmsResourceName);
    if (error) throw DomainError.invalid(error);
    change.kmsResourceName = (value.kmsResourceName as string).trim();
  }
  if (change.description === undefined && change.kmsResourceName === undefined) {
    throw DomainError.invalid("Nothing to update: give a description or a kmsResourceName");
  }
  return change;
}

async function checkKey(kms: Kms, kmsResourceName: string, now: Date): Promise<KeyCheck> {
  const result = await kms.checkKey(kmsResourceName);
  return { ...result, checkedAt: now.toISOString() };
}

function checkedEntry(check: KeyCheck, description: string, actor: string, now: Date) {
  return {
    operation: "encryption-key.checked" as const,
    actor,
    object: description,
    failureReason: check.health === "ok" ? null : check.message,
    date: now,
  };
}

function refuseBuiltIn(secretId: string): void {
  if (secretId === DEFAULT_SECRET_ID) throw DomainError.invalid(SECRET_MESSAGES.defaultKeyReadOnly);
}

function notFound(): DomainError {
  return DomainError.notFound(SECRET_MESSAGES.secretNotFound);
}

export interface SecretsDeps {
  kms: Kms;
  now?: () => Date;
}

/** What the service's changes work with: Cloud KMS and the clock. */
interface SecretsContext {
  kms: Kms;
  now: () => Date;
}

/** Adds a customer key (paid plans), checks it against Cloud KMS and keeps the result on it. */
async function createSecret(
  deps: SecretsContext,
  organization: Scope & { planId: PlanId },
  actor: string,
  body: unknown,
): Promise<Secret> {
  const input = parseCreate(body);
  if (organization.planId === FREE_PLAN) throw DomainError.forbidden(SECRET_MESSAGES.freePlan);
  const at = deps.now();
  const check = await checkKey(deps.kms, input.kmsResourceName, at);
  if (input.isDefault && check.health !== "ok") {
    throw DomainError.invalid(`${SECRET_MESSAGES.notUsableAsDefault} ${check.message ?? ""}`.trim());
  }
  const secretId = repo.newSecretId(organization);
  const stored: StoredSecret = {
    secretId,
    description: input.description,
    kmsResourceName: input.kmsResourceName,
    isDefault: input.isDefault,
    lastCheck: check,
    createdAt: at.toISOString(),
    createdBy: actor,
    updatedAt: at.toISOString(),
  };
  await auditedChange(organization, async (transaction, audit) => {
    if (await repo.secretIdOfKey(transaction, organization, input.kmsResourceName)) {
      throw DomainError.conflict(SECRET_MESSAGES.alreadyAdded);
    }
    const defaults = input.isDefault ? await repo.defaultSecretIds(transaction, organization) : [];
    for (const id of defaults) repo.updateSecret(transaction, organization, id, { isDefault: false });
    repo.createSecret(transaction, organization, stored);
    audit({
      operation: "encryption-key.added",
      actor,
      object: input.description,
      date: at,
    });
    audit(checkedEntry(check, input.description, actor, at));
    if (input.isDefault) {
      audit({
        operation: "encryption-key.default-updated",
        actor,
        object: input.description,
        date: at,
      });
    }
  });
  return toSecret(stored);
}

/** Changes the description and/or the key; a new key is checked first. */
async function updateSecret(
  deps: SecretsContext,
  scope: Scope,
  actor: string,
  secretId: string,
  body: unknown,
): Promise<Secret> {
  refuseBuiltIn(secretId);
  const change = parseUpdate(body);
  const at = deps.now();
  const check = change.kmsResourceName ? await checkKey(deps.kms, change.kmsResourceName, at) : undefined;
  return auditedChange(scope, async (transaction, audit) => {
    const current = await repo.readSecret(transaction, scope, secretId);
    if (!current) throw notFound();
    const keyChanged =
      change.kmsResourceName !== undefined && change.kmsResourceName !== current.kmsResourceName;
    if (keyChanged) {
      const holder = await repo.secretIdOfKey(transaction, scope, change.kmsResourceName as string);
      if (holder && holder !== secretId) throw DomainError.conflict(SECRET_MESSAGES.alreadyAdded);
      if (current.isDefault && check && check.health !== "ok") {
        throw DomainError.invalid(`${SECRET_MESSAGES.notUsableAsDefault} ${check.message ?? ""}`.trim());
      }
    }
    const next: StoredSecret = {
      ...current,
      description: change.description ?? current.description,
      kmsResourceName: change.kmsResourceName ?? current.kmsResourceName,
      lastCheck: check ?? current.lastCheck,
      updatedAt: at.toISOString(),
    };
    repo.updateSecret(transaction, scope, secretId, {
      description: next.description,
      kmsResourceName: next.kmsResourceName,
      lastCheck: next.lastCheck,
      updatedAt: next.updatedAt,
    });
    audit({
      operation: "encryption-key.updated",
      actor,
      object: next.description,
      date: at,
    });
    if (check) audit(checkedEntry(check, next.description, actor, at));
    return toSecret(next);
  });
}

/** Checks a key against Cloud KMS now and keeps the result on the secret (reported, not refused). */
async function checkSecret(
  deps: SecretsContext,
  scope: Scope,
  actor: string,
  secretId: string,
): Promise<Secret> {
  refuseBuiltIn(secretId);
  const existing = await repo.getSecret(scope, secretId);
  if (!existing) throw notFound();
  const at = deps.now();
  const check = await checkKey(deps.kms, existing.kmsResourceName, at);
  return auditedChange(scope, async (transaction, audit) => {
    const current = await repo.readSecret(transaction, scope, secretId);
    if (!current) throw notFound();
    // A key changed while the check ran: the check is about the old one and is not kept.
    const lastCheck = current.kmsResourceName === existing.kmsResourceName ? check : current.lastCheck;
    repo.updateSecret(transaction, scope, secretId, { lastCheck });
    audit(checkedEntry(check, current.description, actor, at));
    return toSecret({ ...current, lastCheck });
  });
}

/** Makes this secret the default (the built-in one: `default`); the previous default is cleared. */
async function setDefaultSecret(
  deps: SecretsContext,
  scope: Scope & { planId: PlanId },
  actor: string,
  secretId: string,
): Promise<SecretsResponse> {
  const at = deps.now();
  await auditedChange(scope, async (transaction, audit) => {
    const target =
      secretId === DEFAULT_SECRET_ID ? undefined : await repo.readSecret(transaction, scope, secretId);
    if (secretId !== DEFAULT_SECRET_ID && !target) throw notFound();
    if (target && target.lastCheck?.health !== "ok") {
      const reason = target.lastCheck?.message ?? "";
      throw DomainError.invalid(`${SECRET_MESSAGES.notUsableAsDefault} ${reason}`.trim());
    }
    const defaults = await repo.defaultSecretIds(transaction, scope);
    const unchanged = target
      ? defaults.length === 1 && defaults[0] === target.secretId
      : defaults.length === 0;
    if (unchanged) return;
    for (const id of defaults) {
      if (id !== secretId) repo.updateSecret(transaction, scope, id, { isDefault: false });
    }
    if (target)
      repo.updateSecret(transaction, scope, target.secretId, {
        isDefault: true,
        updatedAt: at.toISOString(),
      });
    audit({
      operation: "encryption-key.default-updated",
      actor,
      object: target ? target.description : BUILT_IN_DESCRIPTION,
      date: at,
    });
  });
  return listSecrets(scope);
}

/** Deletes a customer key unless backups depend on it; the built-in key becomes default if it was. */
async function removeSecret(
  deps: SecretsContext,
  scope: Scope,
  actor: string,
  secretId: string,
): Promise<void> {
  refuseBuiltIn(secretId);
  const at = deps.now();
  await auditedChange(scope, async (transaction, audit) => {
    const current = await repo.readSecret(transaction, scope, secretId);
    if (!current) throw notFound();
    if (await secretProtectsBackups(transaction, scope, secretId)) {
      throw DomainError.conflict(SECRET_MESSAGES.deleteConflict);
    }
    repo.deleteSecret(transaction, scope, secretId);
    audit({
      operation: "encryption-key.deleted",
      actor,
      object: current.description,
      date: at,
    });
  });
}

export function secretService(deps: SecretsDeps) {
  const context: SecretsContext = { kms: deps.kms, now: deps.now ?? (() => new Date()) };
  return {
    list: listSecrets,
    create: (organization: Scope & { planId: PlanId }, actor: string, body: unknown) =>
      createSecret(context, organization, actor, body),
    update: (scope: Scope, actor: string, secretId: string, body: unknown) =>
      updateSecret(context, scope, actor, secretId, body),
    check: (scope: Scope, actor: string, secretId: string) => checkSecret(context, scope, actor, secretId),
    setDefault: (scope: Scope & { planId: PlanId }, actor: string, secretId: string) =>
      setDefaultSecret(context, scope, actor, secretId),
    remove: (scope: Scope, actor: string, secretId: string) => removeSecret(context, scope, actor, secretId),
  };
}

export type SecretService = ReturnType<typeof secretService>;

/** Every secret of the organisation as stored (the backup engine picks the default one). */
export function storedSecrets(scope: Scope): Promise<StoredSecret[]> {
  return repo.listSecrets(scope);
}

/** One secret as stored, if the organisation has it. */
export function storedSecret(scope: Scope, secretId: string): Promise<StoredSecret | undefined> {
  return repo.getSecret(scope, secretId);
}
