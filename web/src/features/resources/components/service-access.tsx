import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import { useTranslation } from "react-i18next";
import "../i18n/register";
import { useServiceAccess } from "../api/get-access";

/**
 * What the installation does not grant (docs/requirements.md#states-and-flows): for each service the
 * organisation's plan includes whose scopes Google refuses, what to grant and where, before a backup
 * fails on it. Nothing while every scope is granted, or while the check has not answered.
 */
export function ServiceAccessAlerts({ organizationId }: { organizationId: string | null }) {
  const { t } = useTranslation();
  const access = useServiceAccess(organizationId);
  const missing = (access.data?.services ?? []).filter((entry) => entry.inPlan && entry.grant !== null);
  if (missing.length === 0) return null;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
      {missing.map((entry) => (
        <Alert
          key={entry.service}
          severity="warning"
          data-testid="service-access"
          data-service={entry.service}
        >
          <AlertTitle>
            {t(entry.backup ? "resources.access.restoreTitle" : "resources.access.title", {
              service: entry.name,
            })}
          </AlertTitle>
          {entry.grant}
        </Alert>
      ))}
    </Box>
  );
}
