/**
 * The resources as another module's change reads them inside its own transaction (a policy being
 * assigned to them). Apart from service.ts, which reaches the backups module, so that modules the backups
 * module relies on can use it too.
 */
import type { Scope, Transaction } from "../lib/tenancy";
import { existingResourceIds } from "./repo";

/** Which of `resourceIds` are resources of the organisation, read in `transaction` (in the order given). */
export function resourcesIn(
  transaction: Transaction,
  scope: Scope,
  resourceIds: readonly string[],
): Promise<string[]> {
  return existingResourceIds(transaction, scope, resourceIds);
}
