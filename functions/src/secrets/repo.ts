/**
 * Customer secrets (Cloud KMS keys) of one organisation, in its region database:
 * `organizations/{id}/secrets/{secretId}`. The built-in default key is not stored: it is the default
 * whenever no stored secret is. `organizations/{id}/dataKeys/{id}` holds the backup engine's wrapped data
 * keys (`{secretId, wrappedKey, createdAt}`); here only to know whether a secret protects backups.
 */
import type { Transaction } from "firebase-admin/firestore";
import type { KeyCheck, KeyHealth } from "@alpvault/contracts/secrets";
import { organizationRef, type Scope } from "../lib/tenancy";

export type { Scope };

/** A stored customer key (kind `cloud-kms`). */
export interface StoredSecret {
  secretId: string;
  description: string;
  kmsResourceName: string;
  isDefault: boolean;
  lastCheck: KeyCheck | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

const HEALTHS: readonly string[] = [
  "ok",
  "disabled",
  "destroyed",
  "not-found",
  "permission-denied",
  "unavailable",
];

function secrets(scope: Scope) {
  return organizationRef(scope).collection("secrets");
}

function decodeCheck(value: unknown): KeyCheck | null {
  if (typeof value !== "object" || value === null) return null;
  const check = value as Record<string, unknown>;
  if (!HEALTHS.includes(check.health as string) || typeof check.checkedAt !== "string") return null;
  return {
    health: check.health as KeyHealth,
    message: typeof check.message === "string" ? check.message : null,
    checkedAt: check.checkedAt,
  };
}

export function decodeSecret(id: string, data: unknown): StoredSecret | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const value = data as Record<string, unknown>;
  if (typeof value.description !== "string" || typeof value.kmsResourceName !== "string") return undefined;
  const text = (field: unknown) => (typeof field === "string" ? field : "");
  return {
    secretId: id,
    description: value.description,
    kmsResourceName: value.kmsResourceName,
    isDefault: value.isDefault === true,
    lastCheck: decodeCheck(value.lastCheck),
    createdAt: text(value.createdAt),
    createdBy: text(value.createdBy),
    updatedAt: text(value.updatedAt),
  };
}

export async function listSecrets(scope: Scope): Promise<StoredSecret[]> {
  const snapshot = await secrets(scope).get();
  return snapshot.docs.flatMap((doc) => decodeSecret(doc.id, doc.data()) ?? []);
}

export async function getSecret(scope: Scope, secretId: string): Promise<StoredSecret | undefined> {
  const snapshot = await secrets(scope).doc(secretId).get();
  return snapshot.exists ? decodeSecret(snapshot.id, snapshot.data()) : undefined;
}

export async function readSecret(
  transaction: Transaction,
  scope: Scope,
  secretId: string,
): Promise<StoredSecret | undefined> {
  const snapshot = await transaction.get(secrets(scope).doc(secretId));
  return snapshot.exists ? decodeSecret(snapshot.id, snapshot.data()) : undefined;
}

/** The ids of the stored secrets marked default (at most one when written through this module). */
export async function defaultSecretIds(transaction: Transaction, scope: Scope): Promise<string[]> {
  const snapshot = await transaction.get(secrets(scope).where("isDefault", "==", true));
  return snapshot.docs.map((doc) => doc.id);
}

export async function secretIdOfKey(
  transaction: Transaction,
  scope: Scope,
  kmsResourceName: string,
): Promise<string | undefined> {
  const snapshot = await transaction.get(
    secrets(scope).where("kmsResourceName", "==", kmsResourceName).limit(1),
  );
  return snapshot.docs[0]?.id;
}

/** A new document id for a secret (written by `createSecret`). */
export function newSecretId(scope: Scope): string {
  return secrets(scope).doc().id;
}

export function createSecret(transaction: Transaction, scope: Scope, secret: StoredSecret): void {
  const { secretId, ...data } = secret;
  transaction.create(secrets(scope).doc(secretId), { ...data, kind: "cloud-kms" });
}

export function updateSecret(
  transaction: Transaction,
  scope: Scope,
  secretId: string,
  change: Partial<Omit<StoredSecret, "secretId" | "createdAt" | "createdBy">>,
): void {
  transaction.update(secrets(scope).doc(secretId), change);
}

export function deleteSecret(transaction: Transaction, scope: Scope, secretId: string): void {
  transaction.delete(secrets(scope).doc(secretId));
}
