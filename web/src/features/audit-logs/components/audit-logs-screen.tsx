import ChevronLeft from "@mui/icons-material/ChevronLeft";
import ChevronRight from "@mui/icons-material/ChevronRight";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useFormik } from "formik";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AUDIT_OPERATIONS, AUDIT_PAGE_SIZE, validateAuditRange } from "@alpvault/contracts/audit";
import { useSession } from "@/lib/session";
import "../i18n/register";
import { useAuditLogs, type AuditQuery } from "../api/get-audit-logs";
import { isLoading } from "@/lib/query";
import { AuditChainCheck } from "./audit-chain-check";

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
  const { t, i18n } = useTranslation();
  const { organizationId } = useSession();
  const [query, setQuery] = useState<AuditQuery>({ ...defaultRange(), page: 1, pageSize: AUDIT_PAGE_SIZE });
  const logs = useAuditLogs(organizationId, query);

  const form = useFormik({
    initialValues: { start: query.start, end: query.end },
    validate: (values) => validateAuditRange(values.start, values.end),
    onSubmit: (values) => setQuery((previous) => ({ ...previous, ...values, page: 1 })),
  });

  const page = logs.data;
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  const fieldError = (name: "start" | "end") =>
    (form.touched[name] || form.submitCount > 0) && form.errors[name] ? form.errors[name] : undefined;

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Card
        component="form"
        noValidate
        onSubmit={form.handleSubmit}
        aria-label={t("auditLogs.range")}
        sx={{ p: 2, display: "flex", gap: 2, flexWrap: "wrap", alignItems: "flex-start" }}
      >
        {(["start", "end"] as const).map((name) => (
          <TextField
            key={name}
            id={`audit-${name}`}
            name={name}
            type="date"
            label={t(`auditLogs.${name}`)}
            value={form.values[name]}
            onChange={form.handleChange}
            onBlur={form.handleBlur}
            error={Boolean(fieldError(name))}
            helperText={fieldError(name) ?? " "}
            slotProps={{ inputLabel: { shrink: true } }}
            size="small"
          />
        ))}
        <Button type="submit" variant="contained" sx={{ mt: 0.25 }}>
          {t("auditLogs.apply")}
        </Button>
      </Card>

      <AuditChainCheck organizationId={organizationId} />

      {logs.status === "error" && !isLoading(logs) && (
        <Alert severity="error" data-testid="audit-logs-error">
          {logs.error.message}
        </Alert>
      )}

      <Card>
        {isLoading(logs) && <LinearProgress />}
        <TableContainer>
          <Table size="small" aria-label={t("pages.auditLogs.title")}>
            <TableHead>
              <TableRow>
                <TableCell>{t("auditLogs.columns.date")}</TableCell>
                <TableCell>{t("auditLogs.columns.actor")}</TableCell>
                <TableCell>{t("auditLogs.columns.operation")}</TableCell>
                <TableCell>{t("auditLogs.columns.object")}</TableCell>
                <TableCell>{t("auditLogs.columns.failureReason")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {page?.entries.map((entry) => (
                <TableRow key={entry.entryId} data-testid="audit-entry">
                  <TableCell sx={{ whiteSpace: "nowrap" }}>
                    {dateFormat.format(new Date(entry.date))}
                  </TableCell>
                  <TableCell>{entry.actor}</TableCell>
                  <TableCell>{AUDIT_OPERATIONS[entry.operation]}</TableCell>
                  <TableCell>{entry.object}</TableCell>
                  <TableCell sx={{ color: entry.failureReason ? "error.main" : "text.secondary" }}>
                    {entry.failureReason ?? t("auditLogs.succeeded")}
                  </TableCell>
                </TableRow>
              ))}
              {page && page.entries.length === 0 && (
                <TableRow>
                  <TableCell colSpan={5}>
                    <Typography color="text.secondary" data-testid="audit-logs-empty">
                      {t("auditLogs.empty")}
                    </Typography>
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        {page && (
          <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, p: 1 }}>
            <Typography variant="body2" color="text.secondary" sx={{ mr: 2 }}>
              {t("auditLogs.total", { count: page.totalEntries })}
            </Typography>
            <IconButton
              aria-label={t("auditLogs.previous")}
              disabled={page.page <= 1 || isLoading(logs)}
              onClick={() => setQuery((previous) => ({ ...previous, page: previous.page - 1 }))}
            >
              <ChevronLeft />
            </IconButton>
            <Typography variant="body2" data-testid="audit-logs-page">
              {t("auditLogs.page", { page: page.page, pages: page.totalPages })}
            </Typography>
            <IconButton
              aria-label={t("auditLogs.next")}
              disabled={page.page >= page.totalPages || isLoading(logs)}
              onClick={() => setQuery((previous) => ({ ...previous, page: previous.page + 1 }))}
            >
              <ChevronRight />
            </IconButton>
          </Box>
        )}
      </Card>
    </Box>
  );
}
