import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { env } from "@/config/env";
import { isLoading } from "@/lib/query";
import { useHealth } from "../api/get-health";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
      <Typography variant="body2" color="text.secondary" sx={{ minWidth: 110 }}>
        {label}
      </Typography>
      {children}
    </Stack>
  );
}

/** The API's health as the signed-in user sees it through the product API. */
export function SystemStatusCard() {
  const { t } = useTranslation();
  const health = useHealth();
  // A check under way hides the last answer, so what is shown is always the latest check.
  const loading = isLoading(health);
  return (
    <Card data-testid="system-status" sx={{ maxWidth: 480 }}>
      <CardContent>
        <Stack spacing={1.5}>
          <Typography variant="h6" component="h2">
            {t("systemStatus.title")}
          </Typography>
          {loading && (
            <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
              <CircularProgress size={18} />
              <Typography variant="body2">{t("systemStatus.checking")}</Typography>
            </Stack>
          )}
          {!loading && health.status === "success" && (
            <>
              <Row label={t("systemStatus.status")}>
                <Chip color="success" size="small" label={health.data.status} data-testid="health-status" />
              </Row>
              <Row label={t("systemStatus.version")}>
                <Typography variant="body2" data-testid="health-version">
                  {/* The version and the build's environment (emulator builds are development builds). */}
                  {`${health.data.version} (${env.useEmulators ? "development" : "production"})`}
                </Typography>
              </Row>
              <Row label={t("systemStatus.signedInAs")}>
                <Typography variant="body2" data-testid="health-user">
                  {health.data.user?.email ?? health.data.user?.uid}
                </Typography>
              </Row>
            </>
          )}
          {!loading && health.status === "error" && (
            <Alert
              severity="error"
              data-testid="health-error"
              action={
                <Button color="inherit" size="small" onClick={() => void health.refetch()}>
                  {t("systemStatus.retry")}
                </Button>
              }
            >
              {t("systemStatus.error", { message: health.error.message })}
            </Alert>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
