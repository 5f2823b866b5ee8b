/**
 * The one way routes are declared: `apiRouter()` is an Express router whose id parameters are checked as
 * ids (contracts/ids.ts) before any handler runs, so no path can make a handler read another document
 * (`a%2Fb`, `..`, `__proto__`) or send Firestore a string it refuses (a lone surrogate, 2,000 characters).
 * A path whose id is not an id names nothing: 404 with the text of that kind of id.
 */
import { Router } from "express";
import { BACKUP_MESSAGES } from "@alpvault/contracts/backups";
import { BILLING_MESSAGES } from "@alpvault/contracts/billing";
import { DRILL_MESSAGES } from "@alpvault/contracts/drills";
import { EXPORT_MESSAGES } from "@alpvault/contracts/exports";
import { isId } from "@alpvault/contracts/ids";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { POLICY_MESSAGES } from "@alpvault/contracts/policies";
import { RECOVERY_MESSAGES } from "@alpvault/contracts/recovery";
import { SECRET_MESSAGES } from "@alpvault/contracts/secrets";
import { DomainError } from "../lib/errors";

/** Every path parameter a route may declare, with the answer when its value is not an id. */
export const ID_PARAMS = {
  organizationId: ORGANIZATION_MESSAGES.organizationNotFound,
  subscriptionId: ORGANIZATION_MESSAGES.subscriptionNotFound,
  resourceId: BACKUP_MESSAGES.resourceNotFound,
  policyId: POLICY_MESSAGES.notFound,
  secretId: SECRET_MESSAGES.secretNotFound,
  checkoutId: BILLING_MESSAGES.paymentNotFound,
  recoveryId: RECOVERY_MESSAGES.recoveryNotFound,
  drillRunId: DRILL_MESSAGES.runNotFound,
  exportId: EXPORT_MESSAGES.exportNotFound,
} as const;

export type IdParam = keyof typeof ID_PARAMS;

export function apiRouter(): Router {
  const router = Router();
  for (const [name, notFound] of Object.entries(ID_PARAMS)) {
    router.param(name, (_request, _response, next, value: unknown) => {
      next(isId(value) ? undefined : DomainError.notFound(notFound));
    });
  }
  return router;
}
