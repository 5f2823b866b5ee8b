/**
 * The organisation's data keys (docs/backup-format.md §2): `organizations/{id}/dataKeys/{dataKeyId}`, each
 * wrapped by the secret that was the default when it was made (the built-in key, or a customer's Cloud
 * KMS key). New backup data is written with the active data key of the current default secret; when the
 * default secret changes, the next backup makes a new data key under it and retires the others (they are
 * still read; objects never move). A secret named by a record protects backups and cannot be deleted.
 */
import { BACKUP_FAILURE_REASONS } from "@alpvault/contracts/backups";
import { DEFAULT_SECRET_ID } from "@alpvault/contracts/secrets";
import type { Scope } from "../lib/tenancy";
import { storedSecret, storedSecrets } from "../secrets/service";
import { EncryptionKeyError, FormatError } from "../engine/format/errors";
import { DomainError } from "../lib/errors";
import {
  deriveKeys,
  newDataKey,
  unwrapDataKey,
  wrapDataKey,
  type DataKey,
  type DataKeyRecord,
  type DerivedKeys,
  type KeyWrapper,
} from "../engine/format/keys";
import { SharedByKey } from "../lib/parallel";
import { keyringOf, type CatalogKeyring } from "./catalog/sealed-documents";
import { activeDataKeyRecord, dataKeyRecords, makeActiveDataKey } from "./repo";

export interface KeyWrappers {
  /** The wrapper of a secret: the built-in key for `DEFAULT_SECRET_ID`, else the named Cloud KMS key. */
  (secret: { secretId: string; kmsResourceName?: string }): KeyWrapper;
}

/** The default secret now: the stored secret marked default, else the built-in key. */
async function defaultSecret(scope: Scope): Promise<{ secretId: string; kmsResourceName?: string }> {
  const stored = (await storedSecrets(scope)).find((secret) => secret.isDefault);
  return stored
    ? { secretId: stored.secretId, kmsResourceName: stored.kmsResourceName }
    : { secretId: DEFAULT_SECRET_ID };
}

/**
 * The Cloud KMS key of the organisation's default secret (`projects/…/cryptoKeys/…`), or undefined when the
 * built-in key is the default: what protects a file the organisation exports (Cloud Storage's
 * customer-managed encryption, docs/backup-format.md §9.7).
 */
export async function defaultKmsKeyName(scope: Scope): Promise<string | undefined> {
  return (await defaultSecret(scope)).kmsResourceName;
}

/**
 * The data key new backup data of the organisation is written with, unwrapped: the active record of the
 * default secret, made (and the other records retired) when there is none. Two workers making one at once
 * agree on the first record written. Errors of the secret (disabled, destroyed, unreachable) are the
 * wrappers' `EncryptionKeyError`s.
 */
export async function activeDataKey(scope: Scope, wrappers: KeyWrappers, now: Date): Promise<DataKey> {
  const secret = await defaultSecret(scope);
  const wrapper = wrappers(secret);
  const existing = await activeDataKeyRecord(scope, secret.secretId);
  if (existing) return unwrapDataKey(wrapper, scope.organizationId, existing);
  const key = newDataKey();
  const record = await wrapDataKey(wrapper, {
    organizationId: scope.organizationId,
    secretId: secret.secretId,
    dataKey: key,
    now,
  });
  const chosen = await makeActiveDataKey(scope, record, now);
  return chosen.dataKeyId === key.id ? key : unwrapDataKey(wrapper, scope.organizationId, chosen);
}

/**
 * The derived keys of any of the organisation's data keys, by id, each unwrapped once with the secret that
 * wrapped it (restores and the garbage collector read data of every key the organisation ever had).
 */
export function dataKeyResolver(
  scope: Scope,
  wrappers: KeyWrappers,
): (dataKeyId: string) => Promise<DerivedKeys> {
  let records: Promise<Map<string, DataKeyRecord>> | undefined;
  const derived = new SharedByKey<DerivedKeys>();
  const resolve = async (dataKeyId: string): Promise<DerivedKeys> => {
    records ??= dataKeyRecords(scope).then(
      (list) => new Map(list.map((record) => [record.dataKeyId, record])),
    );
    const record = (await records).get(dataKeyId);
    if (!record) throw new FormatError("A version names a data key the organisation does not have.");
    const secret =
      record.secretId === DEFAULT_SECRET_ID
        ? { secretId: DEFAULT_SECRET_ID }
        : {
            secretId: record.secretId,
            kmsResourceName: (await storedSecret(scope, record.secretId))?.kmsResourceName,
          };
    return deriveKeys(await unwrapDataKey(wrappers(secret), scope.organizationId, record));
  };
  return (dataKeyId) => derived.get(dataKeyId, () => resolve(dataKeyId));
}

/**
 * The organisation's catalog keys: every data key it has, unwrapped, for reading catalog documents of
 * format v2 (docs/backup-format.md §9). The wrappers' `EncryptionKeyError` when the customer's key cannot
 * be used (a job fails with it, or retries while Cloud KMS does not answer).
 */
export async function catalogKeyring(scope: Scope, wrappers: KeyWrappers): Promise<CatalogKeyring> {
  const records = await dataKeyRecords(scope);
  const resolve = dataKeyResolver(scope, wrappers);
  const keys = await Promise.all(records.map((record) => resolve(record.dataKeyId)));
  return keyringOf(scope.organizationId, keys);
}

/**
 * `catalogKeyring` for the API: a customer key disabled, destroyed or out of reach makes it a 409 with the
 * spec's "Encryption key error", so that search, browse, recovery, export and downloads answer it rather
 * than show what could not be restored (§9.5).
 */
export async function openCatalogKeys(scope: Scope, wrappers: KeyWrappers): Promise<CatalogKeyring> {
  try {
    return await catalogKeyring(scope, wrappers);
  } catch (error) {
    if (error instanceof EncryptionKeyError)
      throw DomainError.conflict(BACKUP_FAILURE_REASONS["encryption-key-error"]);
    throw error;
  }
}
