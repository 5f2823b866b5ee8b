import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Button from "@mui/material/Button";
import type { SubscriptionDetails } from "@alpvault/contracts/organizations";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { useNow } from "@/lib/clock";
import { formatDate } from "@/lib/format";
import "../i18n/register";

/**
 * Mailboxes beyond the seats (docs/requirements.md "Seats over the count"): how many, until when every
 * mailbox is still backed up (or that those beyond the count no longer are), which ones, and the way out:
 * add the seats (paid plans) or upgrade (the free plan).
 */
export function SeatOverageAlert({
  subscription,
  freePlan,
  busy,
  onAddSeats,
}: {
  subscription: SubscriptionDetails | undefined;
  freePlan: boolean;
  busy: boolean;
  onAddSeats(seats: number): void;
}) {
  const { t, i18n } = useTranslation();
  const now = useNow();
  const overage = subscription?.seatOverage;
  if (!subscription || !overage) return null;
  const stopped = Date.parse(overage.stopsAt) <= now;
  const listed = overage.mailboxes.map((mailbox) => mailbox.email ?? mailbox.resourceId);
  const more = overage.over - listed.length;
  return (
    <Alert
      severity={stopped ? "error" : "warning"}
      data-testid="seat-overage"
      data-stopped={stopped ? "true" : "false"}
      action={
        freePlan ? (
          <Button color="inherit" size="small" component={RouterLink} to="/plans">
            {t("billing.seats.upgrade")}
          </Button>
        ) : (
          <Button
            color="inherit"
            size="small"
            sx={{ whiteSpace: "nowrap" }}
            disabled={busy}
            onClick={() => onAddSeats(subscription.seats.used)}
          >
            {t("billing.seats.add", { count: overage.over })}
          </Button>
        )
      }
    >
      <AlertTitle>
        {t("billing.seats.title", { count: overage.over, seats: subscription.seats.total ?? 0 })}
      </AlertTitle>
      {stopped
        ? t("billing.seats.stopped", { count: overage.over })
        : t("billing.seats.grace", {
            count: overage.over,
            date: formatDate(overage.stopsAt, i18n.language),
          })}{" "}
      <span data-testid="seat-overage-mailboxes">
        {listed.join(", ")}
        {more > 0 ? ` ${t("billing.seats.more", { count: more })}` : ""}
      </span>
    </Alert>
  );
}
