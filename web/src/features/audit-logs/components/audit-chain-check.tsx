import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AUDIT_OPERATIONS, type AuditChainVerification } from "@alpvault/contracts/audit";
import type { ApiError } from "@/lib/api-client";
import { useVerifyAuditLog } from "../api/verify-audit-log";

/**
 * "Verify log integrity": checks the log's hash chain and says whether it is intact or names the first
 * entry that breaks it (its sequence number, date and operation, and what is wrong).
 */
export function AuditChainCheck({ organizationId }: { organizationId: string | null }) {
  const { t, i18n } = useTranslation();
  const verify = useVerifyAuditLog();
  const [result, setResult] = useState<AuditChainVerification | ApiError | null>(null);
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium", timeStyle: "short" });

  const run = () => {
    if (!organizationId) return;
    setResult(null);
    verify.run(organizationId).then(setResult, setResult);
  };

  const broken = result && "intact" in result ? result.firstBroken : null;
  return (
    <Card sx={{ p: 2, display: "flex", flexDirection: "column", gap: 1.5, alignItems: "flex-start" }}>
      <Button variant="outlined" onClick={run} disabled={!organizationId || verify.pending}>
        {verify.pending ? t("auditLogs.integrity.checking") : t("auditLogs.integrity.verify")}
      </Button>
      {result && !("intact" in result) && (
        <Alert severity="error" data-testid="audit-integrity">
          {result.message}
        </Alert>
      )}
      {result && "intact" in result && result.intact && (
        <Alert severity="success" data-testid="audit-integrity">
          {t("auditLogs.integrity.intact", { count: result.entries })}
        </Alert>
      )}
      {broken && (
        <Alert severity="error" data-testid="audit-integrity" sx={{ width: "100%" }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {t(`auditLogs.integrity.reason.${broken.reason}`)}
          </Typography>
          <Typography variant="body2">{broken.message}</Typography>
          {broken.seq !== null && (
            <Typography variant="body2" data-testid="audit-integrity-entry">
              {[
                t("auditLogs.integrity.entry", { seq: broken.seq }),
                broken.date ? dateFormat.format(new Date(broken.date)) : null,
                broken.operation ? AUDIT_OPERATIONS[broken.operation] : null,
              ]
                .filter(Boolean)
                .join(" · ")}
            </Typography>
          )}
        </Alert>
      )}
    </Card>
  );
}
