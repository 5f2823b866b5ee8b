import NotificationsOutlined from "@mui/icons-material/NotificationsOutlined";
import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import type { AlertsResponse } from "@alpvault/contracts/organizations";
import { useTranslation } from "react-i18next";
import { useNow } from "@/lib/clock";
import { formatPastTime } from "@/lib/format";

/** The alerts panel (docs/requirements.md#screens-and-navigation): latest alerts, the unread count and Mark All as Read. */
export function AlertsPanel({
  alerts,
  marking,
  onMarkAllRead,
}: {
  alerts: AlertsResponse | undefined;
  marking: boolean;
  onMarkAllRead: () => void;
}) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const unread = alerts?.unread ?? 0;
  return (
    <Card variant="outlined" data-testid="alerts-panel">
      <CardContent>
        <Box sx={{ display: "flex", alignItems: "center", gap: 2, mb: 1 }}>
          <Badge badgeContent={unread} color="error" showZero={false}>
            <NotificationsOutlined />
          </Badge>
          <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
            {t("resources.alerts.title")}
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="alerts-unread">
            {t("resources.alerts.unread", { count: unread })}
          </Typography>
          <Button size="small" onClick={onMarkAllRead} disabled={!alerts || unread === 0 || marking}>
            {t("resources.alerts.markAllRead")}
          </Button>
        </Box>
        {alerts && alerts.alerts.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t("resources.alerts.empty")}
          </Typography>
        )}
        {alerts && alerts.alerts.length > 0 && (
          // Scrolls when long: focusable, so that the keyboard can scroll it too.
          <List
            dense
            disablePadding
            tabIndex={0}
            aria-label={t("resources.alerts.title")}
            sx={{ maxHeight: 220, overflow: "auto" }}
          >
            {alerts.alerts.map((alert) => (
              <ListItem key={alert.alertId} disableGutters data-testid="alert-item" data-read={alert.read}>
                <ListItemText
                  primary={alert.message}
                  secondary={formatPastTime(alert.createdAt, now, i18n.language)}
                  slotProps={{ primary: { sx: { fontWeight: alert.read ? 400 : 600 } } }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
    </Card>
  );
}
