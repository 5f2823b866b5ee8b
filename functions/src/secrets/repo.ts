/**
 * Customer secrets (Cloud KMS keys) of one organisation, in its region database:
 * `organizations/{id}/secrets/{secretId}`. The built-in default key is not stored: it is the default
 * whenever no stored secret is. `organizations/{id}/dataKeys/{id}` holds the backup engine's wrapped data
 * keys (`{secretId, wrappedKey, createdAt}`); here only to know whether a secret protects backups.
 */
import type { Transaction } from "firebase-admin/firestore";
import { organizationRef, type Scope } from "../lib/tenancy";
import { decodeDocument, readableDocuments } from "../lib/stored";
import { SECRET, type StoredSecret } from "./documents";

export type { Scope, StoredSecret };

function secrets(scope: Scope) {
  return organizationRef(scope).collection("secrets");
}

/** The organisation's secrets (one that does not decode is left out, logged). */
export async function listSecrets(scope: Scope): Promise<StoredSecret[]> {
  return readableDocuments(SECRET, (await secrets(scope).get()).docs);
}

export async function getSecret(scope: Scope, secretId: string): Promise<StoredSecret | undefined> {
  return decodeDocument(SECRET, await secrets(scope).doc(secretId).get());
}

export async function readSecret(
  transaction: Transaction,
  scope: Scope,
  secretId: string,
): Promise<StoredSecret | undefined> {
  return decodeDocument(SECRET, await transaction.get(secrets(scope).doc(secretId)));
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
