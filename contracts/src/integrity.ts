/**
 * Integrity verification of stored backups (docs/backup-engine.md, "Integrity verification"): every day a
 * share of each organisation's backups is read back whole (every chunk and manifest object authenticated,
 * every version's content compared with its digest), so that every stored object is read at least once
 * every 30 days. Damaged items are named, raise an alert and an audit entry, and are fetched again from
 * Google by the resource's next backup.
 */

import type { ServiceItemKind } from "./services";

/** What a damaged item's next backup does about it. */
export type RefetchState =
  /** The next backup of the resource fetches it again from Google. */
  | "pending"
  /** A backup fetched it again; the next verification says whether it reads clean. */
  | "refetched"
  /** Google no longer has it: it cannot be fetched again and stays damaged. */
  | "gone";

/** One item whose stored content cannot be read back as it was backed up. */
export interface DamagedItem {
  /** The catalog's item key (Gmail message id, Drive file id). */
  itemKey: string;
  kind: ServiceItemKind;
  /** The message's subject or the file's name (as backed up), or the item key when the catalog has none. */
  name: string;
  refetch: RefetchState;
}

/** A resource's last verification. */
export interface ResourceIntegrity {
  state: "ok" | "damaged";
  /** Items read back in full. */
  checkedItems: number;
  damagedItems: number;
  /** ISO date-time the verification of the resource ended. */
  verifiedAt: string;
  /** The damaged items (the first `MAX_NAMED_DAMAGED_ITEMS`; `damagedItems` counts them all). */
  damaged: DamagedItem[];
}

/** The most damaged items a resource's result names (the count has them all). */
export const MAX_NAMED_DAMAGED_ITEMS = 50;

export type VerifyTrigger = "schedule" | "manual";
export type VerifyRunState = "pending" | "running" | "succeeded" | "failed";

/** One verification run of an organisation (one at a time per organisation). */
export interface VerifyRun {
  runId: string;
  trigger: VerifyTrigger;
  state: VerifyRunState;
  requestedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** The resources this run verifies, in order. */
  resourceIds: string[];
  progress: {
    resourcesDone: number;
    checkedItems: number;
    damagedItems: number;
    /** Chunk and manifest objects read and authenticated. */
    objectsRead: number;
    /** Stored bytes read. */
    bytesRead: number;
  };
  /** Why the run failed (a docs/requirements.md#errors-and-messages reason text), or null. */
  failureReason: string | null;
}

/** One resource in GET …/integrity. */
export interface ResourceIntegrityView {
  resourceId: string;
  name: string;
  email: string | null;
  lastVerifiedAt: string | null;
  /** null: never verified. */
  integrity: ResourceIntegrity | null;
}

/**
 * The organisation's daily verification: when the next is due (the first a day after set-up; the
 * dispatcher starts it at its first run from then) and when the last one started (null: none yet). Each
 * reads back a share of the backups, every stored object within 30 days.
 */
export interface DailyVerification {
  nextAt: string;
  lastAt: string | null;
}

/** GET /v1/organizations/{organizationId}/integrity. */
export interface IntegrityReport {
  /** Every resource with backups (or a verification result), damaged ones first. */
  resources: ResourceIntegrityView[];
  /** The most recent runs, newest first. */
  runs: VerifyRun[];
  dailyVerification: DailyVerification;
}

/** Body of POST /v1/organizations/{organizationId}/integrity/verify (answer 202: the run). */
export interface VerifyRequest {
  /** Verify only this resource; absent: every resource with backups. */
  resourceId?: string;
}

export const INTEGRITY_MESSAGES = {
  resourceNotFound: "Resource not found",
  alreadyRunning: "A verification of this organisation's backups is already in progress.",
  nothingToVerify: "There are no backups to verify yet.",
  invalidBody: "The body may only name a resourceId",
} as const;

/** "Integrity: 2 damaged items" (the resources screen). */
export function damagedItemsText(count: number): string {
  return `Integrity: ${count} damaged item${count === 1 ? "" : "s"}`;
}

/** The alert a verification raises for a resource with damaged items. */
export function damagedAlertText(resourceName: string, count: number, names: string[]): string {
  const named = names.slice(0, 5).join(", ");
  const more = count > names.slice(0, 5).length ? ` and ${count - names.slice(0, 5).length} more` : "";
  return `Backup integrity check of ${resourceName} found ${count} damaged item${count === 1 ? "" : "s"}: ${named}${more}. ${count === 1 ? "It" : "They"} will be fetched again from Google by the next backup.`;
}

/** Why a damaged item could not be fetched again (the resources screen's tooltip). */
export const REFETCH_TEXTS: Record<RefetchState, string> = {
  pending: "will be fetched again by the next backup",
  refetched: "fetched again; the next verification confirms it",
  gone: "no longer exists at Google: cannot be fetched again",
};
