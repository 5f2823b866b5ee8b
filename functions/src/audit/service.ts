/** Reading the audit log: the date range and paging of the Audit Logs screen, checked as the browser does. */
import {
  AUDIT_MAX_PAGE_SIZE,
  AUDIT_MESSAGES,
  AUDIT_PAGE_SIZE,
  validateAuditRange,
  type AuditPage,
} from "@alpvault/contracts/audit";
import { AppError } from "../http/app-error";
import type { Scope } from "../lib/tenancy";
import { listAudit } from "./repo";

function wholeNumber(value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const number = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(number) || number < 1) throw AppError.badRequest(AUDIT_MESSAGES.invalidPage);
  return Math.min(number, max);
}

/** The day after `day` (YYYY-MM-DD), as the exclusive end of a range of whole days. */
function dayAfter(day: string): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString();
}

/**
 * One page of the log for `?start=YYYY-MM-DD&end=YYYY-MM-DD&page=N&pageSize=N`: both dates required,
 * start not after end (spec §5, same texts as the browser), whole days in UTC, newest first.
 */
export async function auditPage(scope: Scope, query: Record<string, unknown>): Promise<AuditPage> {
  const start = typeof query.start === "string" ? query.start : undefined;
  const end = typeof query.end === "string" ? query.end : undefined;
  const errors = validateAuditRange(start, end);
  const first = errors.start ?? errors.end;
  if (first) throw AppError.badRequest(first);
  const page = wholeNumber(query.page, 1, Number.MAX_SAFE_INTEGER);
  const pageSize = wholeNumber(query.pageSize, AUDIT_PAGE_SIZE, AUDIT_MAX_PAGE_SIZE);
  const range = { from: `${start as string}T00:00:00.000Z`, to: dayAfter(end as string) };
  return listAudit(scope, range, page, pageSize);
}
