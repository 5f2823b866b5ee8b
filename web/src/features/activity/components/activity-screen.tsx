import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import LinearProgress from "@mui/material/LinearProgress";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useTheme } from "@mui/material/styles";
import { BarChart } from "@mui/x-charts/BarChart";
import { LineChart } from "@mui/x-charts/LineChart";
import { successRate, type DailyActivity } from "@alpvault/contracts/activity";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { isLoading } from "@/lib/query";
import { useActivity } from "../api/get-activity";
import { ActivityTable } from "./activity-table";
import {
  inUnit,
  outcomeColor,
  serviceColor,
  sizeUnit,
  storageSeries,
  successRates,
  totalStorage,
} from "./chart-format";
import "../i18n/register";

const PERIODS = [7, 30, 90] as const;

/** A day's label on the charts' axis: "Nov 28". */
function useDayLabel(): (date: string) => string {
  const { i18n } = useTranslation();
  const format = new Intl.DateTimeFormat(i18n.language, { month: "short", day: "numeric", timeZone: "UTC" });
  return (date: string) => format.format(new Date(`${date}T00:00:00Z`));
}

/** A chart in a card: its heading, and the chart named for assistive technology (the table has the figures). */
function ChartCard({
  id,
  heading,
  label,
  children,
}: {
  id: string;
  heading: string;
  label: string;
  children: ReactNode;
}) {
  return (
    <Card
      variant="outlined"
      component="section"
      aria-labelledby={`${id}-heading`}
      data-testid={id}
      sx={{ p: 2 }}
    >
      <Typography variant="h6" component="h2" id={`${id}-heading`}>
        {heading}
      </Typography>
      <Box role="img" aria-label={label}>
        {children}
      </Box>
    </Card>
  );
}

function Charts({ days }: { days: DailyActivity[] }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const dayLabel = useDayLabel();
  const dates = days.map((day) => dayLabel(day.date));
  const band = [{ scaleType: "band" as const, data: dates }];
  const storageUnit = sizeUnit(Math.max(0, ...days.map(totalStorage)));
  const dataUnit = sizeUnit(Math.max(0, ...days.map((day) => day.bytes)));
  return (
    <>
      <ChartCard
        id="activity-storage"
        heading={t("activity.screen.storage")}
        label={t("activity.screen.storageLabel")}
      >
        <LineChart
          height={260}
          xAxis={[{ scaleType: "point", data: dates }]}
          yAxis={[{ label: storageUnit.label, min: 0 }]}
          series={storageSeries(days, storageUnit).map((series) => ({
            ...series,
            // A single day with a figure is a point, not a line: every day is marked.
            showMark: true,
            color: serviceColor(theme, series.id),
            valueFormatter: (value: number | null) =>
              value === null ? "—" : `${value} ${storageUnit.label}`,
          }))}
        />
      </ChartCard>
      <ChartCard
        id="activity-backed-up"
        heading={t("activity.screen.backedUp")}
        label={t("activity.screen.backedUpLabel")}
      >
        <BarChart
          height={260}
          xAxis={band}
          yAxis={[
            { id: "items", label: t("activity.screen.itemsSeries"), min: 0 },
            { id: "bytes", label: dataUnit.label, min: 0, position: "right" },
          ]}
          series={[
            {
              id: "items",
              label: t("activity.screen.itemsSeries"),
              yAxisId: "items",
              color: theme.palette.primary.main,
              data: days.map((day) => day.items),
            },
            {
              id: "bytes",
              label: t("activity.screen.bytesSeries", { unit: dataUnit.label }),
              yAxisId: "bytes",
              color: theme.palette.warning.main,
              data: days.map((day) => inUnit(day.bytes, dataUnit)),
              valueFormatter: (value: number | null) => (value === null ? "—" : `${value} ${dataUnit.label}`),
            },
          ]}
        />
      </ChartCard>
      <ChartCard
        id="activity-success"
        heading={t("activity.screen.success")}
        label={t("activity.screen.successLabel")}
      >
        <LineChart
          height={260}
          xAxis={[{ scaleType: "point", data: dates }]}
          yAxis={[{ label: "%", min: 0, max: 100 }]}
          series={[
            {
              id: "rate",
              label: t("activity.screen.rateSeries"),
              // A day without backups has no rate: no mark, and no line drawn through it.
              data: successRates(days),
              showMark: true,
              color: theme.palette.success.main,
              valueFormatter: (value: number | null) => (value === null ? "—" : `${value} %`),
            },
          ]}
        />
        <Typography variant="body2" color="text.secondary" data-testid="activity-success-rates">
          {days
            .filter((day) => successRate(day.runs) !== null)
            .map((day) => `${dayLabel(day.date)}: ${successRate(day.runs)} %`)
            .join(" · ") || t("activity.screen.noRuns")}
        </Typography>
      </ChartCard>
      <ChartCard
        id="activity-outcomes"
        heading={t("activity.screen.outcomes")}
        label={t("activity.screen.outcomesLabel")}
      >
        <BarChart
          height={260}
          xAxis={band}
          series={(["ok", "partial", "failed"] as const).map((outcome) => ({
            id: outcome,
            label: t(`activity.outcomes.${outcome}`),
            stack: "runs",
            color: outcomeColor(theme, outcome),
            data: days.map((day) => day.runs[outcome]),
          }))}
        />
      </ChartCard>
    </>
  );
}

/**
 * The organisation's backups over time (docs/requirements.md#backup-activity): the protected storage per
 * service, the items and data backed up per day, each day's success rate (in percent, plotted) and its
 * backups by outcome; the same figures as a table on request.
 */
export function ActivityScreen({ organizationId }: { organizationId: string | null }) {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<number>(30);
  const [table, setTable] = useState(false);
  const activity = useActivity(organizationId, period);
  const days = activity.data?.days ?? [];
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }} data-testid="activity-screen">
      <Typography color="text.secondary">{t("activity.screen.intro")}</Typography>
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
        <ToggleButtonGroup
          exclusive
          size="small"
          value={period}
          aria-label={t("activity.screen.days")}
          onChange={(_event, value: number | null) => value && setPeriod(value)}
        >
          {PERIODS.map((count) => (
            <ToggleButton key={count} value={count}>
              {t("activity.screen.lastDays", { count })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <Button variant="outlined" onClick={() => setTable((shown) => !shown)} aria-expanded={table}>
          {table ? t("activity.screen.hideTable") : t("activity.screen.showTable")}
        </Button>
      </Box>
      <Box sx={{ height: 4 }}>
        {isLoading(activity) && <LinearProgress aria-label={t("activity.screen.table")} />}
      </Box>
      {activity.error && <Alert severity="error">{activity.error.message}</Alert>}
      {table && activity.data && <ActivityTable days={days} />}
      {activity.data && <Charts days={days} />}
    </Box>
  );
}
