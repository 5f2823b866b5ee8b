import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSession } from "@/lib/session";
import { isLoading } from "@/lib/query";
import "../i18n/register";
import { useDrillSettings } from "../api/get-drill-settings";
import { isDrillActive, useDrillRuns } from "../api/list-drill-runs";
import { useMailboxes } from "../api/list-mailboxes";
import { DrillHistory } from "./drill-history";
import { DrillSettingsCard } from "./drill-settings-card";

/**
 * Restore drills: the settings (a schedule, the sandbox mailbox among the organisation's mailboxes, the
 * sample size), "Run a drill now", and the history (date, sample, matched, mismatched, duration, state),
 * with the items of a run that did not match or failed listed under it, and each run opening with every item
 * it sampled and how each compared. The history refreshes while a drill runs.
 */
export function DrillsScreen() {
  const { t } = useTranslation();
  const { organizationId } = useSession();
  const settings = useDrillSettings(organizationId);
  const mailboxes = useMailboxes(organizationId);
  const [page, setPage] = useState(1);
  const runs = useDrillRuns(organizationId, page);
  const running = runs.data?.runs.some(isDrillActive) ?? false;

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {t("drills.intro")}
      </Typography>
      {settings.error && <Alert severity="error">{settings.error.message}</Alert>}
      <DrillSettingsCard
        organizationId={organizationId}
        saved={settings.data}
        mailboxes={mailboxes.data ?? []}
        running={running}
        onStarted={() => setPage(1)}
      />
      <DrillHistory
        organizationId={organizationId}
        history={runs.data}
        loading={isLoading(runs)}
        error={runs.error}
        page={page}
        onPage={setPage}
      />
    </Box>
  );
}
