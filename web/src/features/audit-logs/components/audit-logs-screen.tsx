import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import { useState } from "react";
import { AUDIT_PAGE_SIZE } from "@alpvault/contracts/audit";
import { useSession } from "@/lib/session";
import "../i18n/register";
import { useAuditLogs, type AuditQuery } from "../api/get-audit-logs";
import { isLoading } from "@/lib/query";
import { AuditChainCheck } from "./audit-chain-check";
import { AuditLogTable } from "./audit-log-table";
import { AuditRangeForm } from "./audit-range-form";

/** A date as YYYY-MM-DD in the browser's own calendar. */
function isoDay(date: Date): string {
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
}

/** The last 30 days up to today: what an admin opening the log wants to see first. */
function defaultRange(): { start: string; end: string } {
  const end = new Date();
  const start = new Date(end);
  start.setDate(start.getDate() - 29);
  return { start: isoDay(start), end: isoDay(end) };
}

/**
 * Audit Logs (docs/requirements.md#screens-and-navigation, #data-the-console-shows, #validation): entries in a date range, newest first, paged as "Page X of Y". The range
 * is checked with the same rules and texts as the API (start and end required, start before end).
 */
export function AuditLogsScreen() {
  const { organizationId } = useSession();
  const [query, setQuery] = useState<AuditQuery>({ ...defaultRange(), page: 1, pageSize: AUDIT_PAGE_SIZE });
  const logs = useAuditLogs(organizationId, query);

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <AuditRangeForm
        initial={{ start: query.start, end: query.end }}
        onApply={(range) => setQuery((previous) => ({ ...previous, ...range, page: 1 }))}
      />

      <AuditChainCheck organizationId={organizationId} />

      {logs.status === "error" && !isLoading(logs) && (
        <Alert severity="error" data-testid="audit-logs-error">
          {logs.error.message}
        </Alert>
      )}

      <AuditLogTable
        page={logs.data}
        loading={isLoading(logs)}
        onPage={(delta) => setQuery((previous) => ({ ...previous, page: previous.page + delta }))}
      />
    </Box>
  );
}
