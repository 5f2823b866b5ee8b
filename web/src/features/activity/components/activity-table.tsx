import { SERVICE_IDS } from "@alpvault/contracts/services";
import Card from "@mui/material/Card";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import { successRate, type DailyActivity } from "@alpvault/contracts/activity";
import { useTranslation } from "react-i18next";
import { formatStorage } from "@/lib/format";

/** The activity charts' figures, one row per day, newest first. */
export function ActivityTable({ days }: { days: DailyActivity[] }) {
  const { t, i18n } = useTranslation();
  const none = t("activity.screen.none");
  return (
    <Card variant="outlined" sx={{ overflowX: "auto" }}>
      <Table size="small" aria-label={t("activity.screen.table")} data-testid="activity-table">
        <TableHead>
          <TableRow>
            <TableCell>{t("activity.screen.date")}</TableCell>
            <TableCell>{t("activity.screen.runs")}</TableCell>
            <TableCell align="right">{t("activity.screen.rate")}</TableCell>
            <TableCell align="right">{t("activity.screen.items")}</TableCell>
            <TableCell align="right">{t("activity.screen.bytes")}</TableCell>
            {SERVICE_IDS.map((service) => (
              <TableCell key={service} align="right">
                {t(`activity.screen.${service}`)}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {[...days].reverse().map((day) => {
            const rate = successRate(day.runs);
            return (
              <TableRow key={day.date} data-testid="activity-day" data-date={day.date}>
                <TableCell>{day.date}</TableCell>
                <TableCell data-testid="activity-runs">
                  {`${day.runs.ok} / ${day.runs.partial} / ${day.runs.failed}`}
                </TableCell>
                <TableCell align="right" data-testid="activity-rate">
                  {rate === null ? none : `${rate} %`}
                </TableCell>
                <TableCell align="right" data-testid="activity-items">
                  {day.items.toLocaleString(i18n.language)}
                </TableCell>
                <TableCell align="right" data-testid="activity-bytes">
                  {formatStorage(day.bytes)}
                </TableCell>
                {SERVICE_IDS.map((service) => (
                  <TableCell key={service} align="right" data-testid={`activity-${service}`}>
                    {day.storage ? formatStorage(day.storage[service]) : none}
                  </TableCell>
                ))}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </Card>
  );
}
