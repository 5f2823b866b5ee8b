import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import FormControlLabel from "@mui/material/FormControlLabel";
import LinearProgress from "@mui/material/LinearProgress";
import Skeleton from "@mui/material/Skeleton";
import Switch from "@mui/material/Switch";
import Typography from "@mui/material/Typography";
import type { SubscriptionDetails } from "@alpvault/contracts/organizations";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import "../i18n/register";
import { paths } from "@/config/paths";
import { formatStorage } from "@/lib/format";

/** A labelled line of the card; its value is a placeholder until the subscription is read. */
function Row({
  label,
  testId,
  children,
}: {
  label: string;
  testId: string;
  children: ReactNode | undefined;
}) {
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
      <Box data-testid={testId}>{children ?? <Skeleton variant="text" width="40%" />}</Box>
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
function SubscriptionRows({ subscription }: { subscription: SubscriptionDetails | undefined }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <Row label={t("billing.subscription.plan")} testId="subscription-plan">
        {subscription && <PlanValue subscription={subscription} />}
      </Row>
      <Row label={t("billing.subscription.renewal")} testId="subscription-renewal">
        {subscription && (
          <Typography>
            {new Intl.DateTimeFormat(i18n.language, { dateStyle: "long" }).format(
              new Date(subscription.renewalDate),
            )}
          </Typography>
        )}
      </Row>
      <Row label={t("billing.subscription.seats")} testId="subscription-seats">
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
      <Row label={t("billing.subscription.storage")} testId="subscription-storage">
        {subscription && <StorageValue subscription={subscription} />}
      </Row>
    </>
  );
}

/**
 * The subscription (docs/requirements.md#data-the-console-shows): plan, renewal date, seats used and total (or unlimited), storage used and
 * maximum, and the auto-add-storage setting.
 */
export function SubscriptionCard({
  subscription,
  titled,
  autoAddStorage,
  toggling,
  onToggleAutoAdd,
}: {
  subscription: SubscriptionDetails | undefined;
  /** Shows the "My Subscription" heading (where the page itself has another title). */
  titled: boolean;
  /** The setting as shown (follows the switch at once; reverts when saving fails). */
  autoAddStorage: boolean;
  toggling: boolean;
  onToggleAutoAdd(enabled: boolean): void;
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
        <SubscriptionRows subscription={subscription} />
        <Box sx={{ pt: 1.5 }}>
          <FormControlLabel
            control={
              <Switch
                checked={autoAddStorage}
                disabled={!subscription || toggling}
                onChange={(event) => onToggleAutoAdd(event.target.checked)}
                slotProps={{ input: { "data-testid": "auto-add-storage" } as object }}
              />
            }
            label={t("billing.subscription.autoAdd")}
          />
          <Typography variant="body2" color="text.secondary">
            {t("billing.subscription.autoAddHelp")}
          </Typography>
        </Box>
      </CardContent>
    </Card>
  );
}
