/**
 * The resources module inside another module's transaction: the resources a change reads (a policy being
 * assigned to them) and the alerts it raises (a failed payment). Apart from service.ts, which reaches the backups module, so that modules the backups
 * module relies on can use it too.
 */
import type { Alert } from "@alpvault/contracts/organizations";
import type { Scope, Transaction } from "../lib/tenancy";
import { addAlertIn, existingResourceIds } from "./repo";

/** Which of `resourceIds` are resources of the organisation, read in `transaction` (in the order given). */
export function resourcesIn(
  transaction: Transaction,
  scope: Scope,
  resourceIds: readonly string[],
): Promise<string[]> {
  return existingResourceIds(transaction, scope, resourceIds);
}

/** Raises an alert for the resources screen as part of `transaction`. */
export function raiseAlertIn(transaction: Transaction, scope: Scope, alert: Omit<Alert, "alertId">): void {
  addAlertIn(transaction, scope, alert);
}
