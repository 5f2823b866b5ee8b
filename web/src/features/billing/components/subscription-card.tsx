import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import LinearProgress from "@mui/material/LinearProgress";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import type { SubscriptionDetails } from "@alpvault/contracts/organizations";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import "../i18n/register";
import { paths } from "@/config/paths";
import { formatStorage, formatDate } from "@/lib/format";

/** A labelled line of the card; its value is a placeholder until the subscription is read. */
function Row({
  label,
  testId,
  failed,
  children,
}: {
  label: string;
  testId: string;
  failed: boolean;
  children: ReactNode | undefined;
}) {
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        display: "grid",
        gridTemplateColumns: { xs: "1fr", sm: "12rem 1fr" },
        gap: 1,
        py: 1.5,
        borderBottom: 1,
        borderColor: "divider",
        alignItems: "center",
      }}
    >
      <Typography color="text.secondary">{label}</Typography>
      <Box data-testid={testId}>
        {children ??
          (failed ? (
            <Typography color="text.secondary">{t("billing.subscription.unavailable")}</Typography>
          ) : (
            <Skeleton variant="text" width="40%" />
          ))}
      </Box>
    </Box>
  );
}

function PlanValue({ subscription }: { subscription: SubscriptionDetails }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
      <Typography component="span" sx={{ fontWeight: 600 }}>
        {subscription.plan.name}
      </Typography>
      <Chip
        size="small"
        color={subscription.plan.premium ? "primary" : "default"}
        label={
          subscription.plan.premium ? t("billing.subscription.premium") : t("billing.subscription.freePlan")
        }
      />
    </Box>
  );
}

function StorageValue({ subscription }: { subscription: SubscriptionDetails }) {
  const { t } = useTranslation();
  const { used, maximum } = subscription.storage;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
      <Typography>
        {t("billing.subscription.storageValue", {
          used: formatStorage(used),
          maximum: formatStorage(maximum),
        })}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={maximum > 0 ? Math.min(100, (used / maximum) * 100) : 0}
        sx={{ maxWidth: 320 }}
        aria-label={t("billing.subscription.storage")}
      />
    </Box>
  );
}

/** Plan, renewal date, seats and storage; placeholders until the subscription is read. */
function SubscriptionRows({
  subscription,
  failed,
}: {
  subscription: SubscriptionDetails | undefined;
  failed: boolean;
}) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <Row label={t("billing.subscription.plan")} testId="subscription-plan" failed={failed}>
        {subscription && <PlanValue subscription={subscription} />}
      </Row>
      <Row label={t("billing.subscription.renewal")} testId="subscription-renewal" failed={failed}>
        {subscription && <Typography>{formatDate(subscription.renewalDate, i18n.language)}</Typography>}
      </Row>
      <Row label={t("billing.subscription.seats")} testId="subscription-seats" failed={failed}>
        {subscription && (
          <Typography>
            {t("billing.subscription.seatsValue", {
              used: subscription.seats.used,
              total:
                subscription.seats.total === null
                  ? t("billing.subscription.unlimited")
                  : subscription.seats.total,
            })}
          </Typography>
        )}
      </Row>
      <Row label={t("billing.subscription.storage")} testId="subscription-storage" failed={failed}>
        {subscription && <StorageValue subscription={subscription} />}
      </Row>
    </>
  );
}

/**
 * The subscription (docs/requirements.md#data-the-console-shows): plan, renewal date, seats used and total (or unlimited), storage used and
 * maximum, and the auto-add-storage setting (`autoAdd`). When the subscription could not be read
 * (`failed`), its figures say they are unavailable instead of loading for ever.
 */
export function SubscriptionCard({
  subscription,
  failed,
  titled,
  autoAdd,
}: {
  subscription: SubscriptionDetails | undefined;
  failed: boolean;
  /** Shows the "My Subscription" heading (where the page itself has another title). */
  titled: boolean;
  autoAdd: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card variant="outlined" data-testid="subscription">
      <CardContent>
        <Box
          sx={{
            display: "flex",
            alignItems: "center",
            justifyContent: titled ? "space-between" : "flex-end",
            gap: 2,
          }}
        >
          {titled && (
            <Typography variant="h6" component="h2">
              {t("billing.subscription.title")}
            </Typography>
          )}
          <Button component={RouterLink} to={paths.app.plans.getHref()} variant="outlined" size="small">
            {t("billing.subscription.changePlan")}
          </Button>
        </Box>
        <SubscriptionRows subscription={subscription} failed={failed} />
        <Box sx={{ pt: 1.5 }}>{autoAdd}</Box>
      </CardContent>
    </Card>
  );
}
