import ChevronLeft from "@mui/icons-material/ChevronLeft";
import ChevronRight from "@mui/icons-material/ChevronRight";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { AUDIT_OPERATIONS, type AuditPage } from "@alpvault/contracts/audit";

/** How many entries, and "Page X of Y" between previous and next. */
function AuditPager({
  page,
  loading,
  onPage,
}: {
  page: AuditPage;
  loading: boolean;
  onPage: (delta: -1 | 1) => void;
}) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", alignItems: "center", justifyContent: "flex-end", gap: 1, p: 1 }}>
      <Typography variant="body2" color="text.secondary" sx={{ mr: 2 }}>
        {t("auditLogs.total", { count: page.totalEntries })}
      </Typography>
      <IconButton
        aria-label={t("auditLogs.previous")}
        disabled={page.page <= 1 || loading}
        onClick={() => onPage(-1)}
      >
        <ChevronLeft />
      </IconButton>
      <Typography variant="body2" data-testid="audit-logs-page">
        {t("auditLogs.page", { page: page.page, pages: page.totalPages })}
      </Typography>
      <IconButton
        aria-label={t("auditLogs.next")}
        disabled={page.page >= page.totalPages || loading}
        onClick={() => onPage(1)}
      >
        <ChevronRight />
      </IconButton>
    </Box>
  );
}

/** One page of entries (date, actor, operation, object, failure reason), newest first. */
export function AuditLogTable({
  page,
  loading,
  onPage,
}: {
  page: AuditPage | undefined;
  loading: boolean;
  /** Moves one page back (-1) or on (1). */
  onPage: (delta: -1 | 1) => void;
}) {
  const { t, i18n } = useTranslation();
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });
  return (
    <Card>
      {loading && <LinearProgress />}
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
                <TableCell sx={{ whiteSpace: "nowrap" }}>{dateFormat.format(new Date(entry.date))}</TableCell>
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
      {page && <AuditPager page={page} loading={loading} onPage={onPage} />}
    </Card>
  );
}
