/**
 * The backups module inside another module's transaction: whether a secret still protects backups, read
 * where the secret is being deleted. Apart from service.ts, so that modules the backups module relies on
 * (secrets/) can use it without a cycle.
 */
import type { Scope, Transaction } from "../lib/tenancy";
import { dataKeyUsesSecret } from "./repo";

/** True when some backup depends on the secret (a data key was wrapped under it), read in `transaction`. */
export function secretProtectsBackups(
  transaction: Transaction,
  scope: Scope,
  secretId: string,
): Promise<boolean> {
  return dataKeyUsesSecret(transaction, scope, secretId);
}
