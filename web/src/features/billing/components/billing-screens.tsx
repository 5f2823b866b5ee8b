import Alert from "@mui/material/Alert";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { PLANS } from "@alpvault/contracts/plans";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import "../i18n/register";
import { initials } from "@/lib/format";
import { useSession } from "@/lib/session";
import { useSnackbar } from "@/lib/snackbar";
import { usePlans } from "../api/get-plans";
import { useSetAutoAddStorage } from "../api/set-auto-add-storage";
import { useCurrentSubscription, useStartCheckout } from "../hooks/use-billing";
import { PaymentModal } from "./payment-modal";
import { PlanCards } from "./plan-cards";
import { StorageAddOnCard } from "./storage-add-on-card";
import { SubscriptionCard } from "./subscription-card";

/** The plans route (docs/requirements.md#screens-and-navigation): the plans with upgrades, the storage add-on, and the payment modal. */
export function PlansScreen() {
  const plans = usePlans();
  const { organizationId, subscription, reload } = useCurrentSubscription();
  const checkout = useStartCheckout(organizationId);
  const { show } = useSnackbar();
  const current = subscription.data?.plan.id;
  const currentPlanId = current && current in PLANS ? (current as keyof typeof PLANS) : null;

  useEffect(() => {
    if (plans.error) show({ text: plans.error.message, isError: true });
  }, [plans.error, show]);

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 3 }}>
      {plans.data ? (
        <PlanCards
          plans={plans.data.plans}
          currentPlanId={currentPlanId}
          defaultSeats={Math.max(1, subscription.data?.seats.used ?? 1)}
          busy={checkout.pending}
          onUpgrade={(planId, seats) => checkout.start({ kind: "upgrade", planId, seats })}
        />
      ) : plans.error ? (
        <Alert severity="error">{plans.error.message}</Alert>
      ) : (
        <Skeleton variant="rounded" height={320} />
      )}
      <StorageAddOnCard
        freePlan={currentPlanId === "matterhorn"}
        busy={checkout.pending || !currentPlanId}
        upgradeLink={false}
        onBuy={(packs) => checkout.start({ kind: "storage", packs })}
      />
      <PaymentModal organizationId={organizationId} onPaid={reload} />
    </Box>
  );
}

/** The subscription with its auto-add-storage switch; the switch reverts when saving fails (docs/requirements.md#errors-and-messages). */
function SubscriptionSection({ titled }: { titled: boolean }) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const { organizationId, subscription, reload } = useCurrentSubscription();
  const toggle = useSetAutoAddStorage();
  const [autoAdd, setAutoAdd] = useState(false);
  useEffect(() => {
    if (subscription.data) setAutoAdd(subscription.data.autoAddStorage);
  }, [subscription.data]);
  const checkout = useStartCheckout(organizationId);

  const onToggle = useCallback(
    (enabled: boolean) => {
      if (!organizationId) return;
      setAutoAdd(enabled);
      toggle.run(organizationId, enabled).then(
        (answer) => {
          setAutoAdd(answer.autoAddStorage);
          show({
            text: answer.autoAddStorage ? t("billing.messages.autoAddOn") : t("billing.messages.autoAddOff"),
            isError: false,
          });
        },
        () => {
          setAutoAdd(!enabled);
          show({ text: t("billing.messages.autoAddFailed"), isError: true });
        },
      );
    },
    [organizationId, toggle, show, t],
  );

  return (
    <>
      {subscription.error && <Alert severity="error">{subscription.error.message}</Alert>}
      <SubscriptionCard
        subscription={subscription.data}
        titled={titled}
        autoAddStorage={autoAdd}
        toggling={toggle.pending}
        onToggleAutoAdd={onToggle}
      />
      <StorageAddOnCard
        freePlan={subscription.data?.plan.id === "matterhorn"}
        busy={checkout.pending || !subscription.data}
        upgradeLink
        onBuy={(packs) => checkout.start({ kind: "storage", packs })}
      />
      <PaymentModal organizationId={organizationId} onPaid={reload} />
    </>
  );
}

/** /profile/subscription (docs/requirements.md#screens-and-navigation). */
export function SubscriptionScreen() {
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 3 }}>
      <SubscriptionSection titled={false} />
    </Box>
  );
}

/** /profile (docs/requirements.md#screens-and-navigation): the signed-in admin, then My Subscription. */
export function ProfileScreen() {
  const { t } = useTranslation();
  const { displayName, email, pictureUrl } = useSession();
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 3 }}>
      <Card variant="outlined" data-testid="profile-account">
        <CardContent sx={{ display: "flex", alignItems: "center", gap: 2 }}>
          <Avatar
            src={pictureUrl ?? undefined}
            alt={displayName ?? email ?? ""}
            sx={{ width: 56, height: 56 }}
          >
            {initials(displayName ?? email)}
          </Avatar>
          <Box>
            <Typography variant="overline" color="text.secondary">
              {t("billing.subscription.account")}
            </Typography>
            <Typography variant="h6" component="p">
              {displayName}
            </Typography>
            <Typography color="text.secondary">{email}</Typography>
          </Box>
        </CardContent>
      </Card>
      <SubscriptionSection titled />
    </Box>
  );
}
