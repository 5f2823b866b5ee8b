import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import type { ResourcesAnalytics } from "@alpvault/contracts/organizations";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatStorage } from "@/lib/format";

function Figure({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <Card variant="outlined" data-testid={testId}>
      <CardContent>
        <Typography variant="body2" color="text.secondary" gutterBottom>
          {label}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

function Value({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <Typography variant="h5" component="p" data-testid={testId}>
      {children}
    </Typography>
  );
}

/** The resources screen's figures (docs/requirements.md#screens-and-navigation analytics), from `GET …/analytics`. */
export function AnalyticsCards({ analytics }: { analytics: ResourcesAnalytics | undefined }) {
  const { t, i18n } = useTranslation();
  const number = (value: number) => new Intl.NumberFormat(i18n.language).format(value);
  const loading = <Skeleton variant="text" width="60%" sx={{ fontSize: "1.5rem" }} />;
  const change = analytics?.dataDynamics.changePercent ?? null;
  return (
    <Box
      data-testid="resources-analytics"
      sx={{
        display: "grid",
        gap: 2,
        gridTemplateColumns: { xs: "1fr", sm: "repeat(2, 1fr)", lg: "repeat(5, 1fr)" },
      }}
    >
      <Figure label={t("resources.analytics.protected")} testId="analytics-protected">
        {analytics ? (
          <Value testId="analytics-protected-value">
            {t("resources.analytics.protectedValue", {
              protected: number(analytics.protectedResources),
              total: number(analytics.totalResources),
            })}
          </Value>
        ) : (
          loading
        )}
      </Figure>
      <Figure label={t("resources.analytics.totalSize")} testId="analytics-size">
        {analytics ? <Value>{formatStorage(analytics.totalBackupBytes)}</Value> : loading}
      </Figure>
      <Figure label={t("resources.analytics.status")} testId="analytics-status">
        {analytics ? (
          <Chip
            data-testid="analytics-status-value"
            color={analytics.protectionStatus === "compliant" ? "success" : "warning"}
            label={t(`resources.analytics.${analytics.protectionStatus}`)}
          />
        ) : (
          loading
        )}
      </Figure>
      <Figure label={t("resources.analytics.dynamics")} testId="analytics-dynamics">
        {analytics ? (
          <>
            <Value>{formatStorage(analytics.dataDynamics.currentCycleBytes)}</Value>
            <Typography variant="caption" color="text.secondary">
              {change === null
                ? t("resources.analytics.dynamicsNone")
                : t("resources.analytics.dynamicsChange", {
                    change: `${change > 0 ? "+" : ""}${number(change)} %`,
                  })}
            </Typography>
          </>
        ) : (
          loading
        )}
      </Figure>
      <Figure
        label={`${t("resources.analytics.emails")} · ${t("resources.analytics.files")}`}
        testId="analytics-items"
      >
        {analytics ? (
          <Box sx={{ display: "flex", gap: 3 }}>
            <Box>
              <Value testId="analytics-emails">{number(analytics.emails)}</Value>
              <Typography variant="caption" color="text.secondary">
                {t("resources.analytics.emails")}
              </Typography>
            </Box>
            <Box>
              <Value testId="analytics-files">{number(analytics.files)}</Value>
              <Typography variant="caption" color="text.secondary">
                {t("resources.analytics.files")}
              </Typography>
            </Box>
          </Box>
        ) : (
          loading
        )}
      </Figure>
    </Box>
  );
}
