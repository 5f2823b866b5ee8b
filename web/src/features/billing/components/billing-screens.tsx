import Alert from "@mui/material/Alert";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { isPlanId, type PlanId } from "@alpvault/contracts/plans";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import "../i18n/register";
import { initials } from "@/lib/format";
import { RetryableError } from "@/components/ui/notices";
import { useFreePlan, useSession } from "@/lib/session";
import { useSnackbar } from "@/lib/snackbar";
import { usePlans } from "../api/get-plans";
import { useAutoAddStorageSetting, useCurrentSubscription, useStartCheckout } from "../hooks/use-billing";
import { AutoAddStorageSwitch } from "./auto-add-storage-switch";
import { CheckoutDialog } from "./checkout-dialog";
import { PaymentModal } from "./payment-modal";
import { PlanCards } from "./plan-cards";
import { StorageAddOnCard } from "./storage-add-on-card";
import { SubscriptionCard } from "./subscription-card";

/** The purchase buttons' payment modals: before the checkout (the purchase) and on the return (the outcome). */
function PaymentModals({
  checkout,
  organizationId,
  onPaid,
}: {
  checkout: ReturnType<typeof useStartCheckout>;
  organizationId: string | null;
  onPaid(): void;
}) {
  return (
    <>
      <CheckoutDialog
        purchase={checkout.purchase}
        opening={checkout.opening}
        onCancel={checkout.cancel}
        onContinue={checkout.confirm}
      />
      <PaymentModal organizationId={organizationId} onPaid={onPaid} />
    </>
  );
}

/**
 * The plans route (docs/requirements.md#screens-and-navigation): the plans with upgrades, the storage add-on with the
 * auto-add-storage setting, and the payment modal. The current plan is the subscription's, or, when that
 * cannot be read, the one the organisation's answers name, so upgrades stay offered.
 */
export function PlansScreen() {
  const plans = usePlans();
  const { organizationPlan } = useSession();
  const { organizationId, subscription, reload } = useCurrentSubscription();
  const checkout = useStartCheckout(organizationId);
  const autoAdd = useAutoAddStorageSetting(organizationId, subscription.data);
  const { show } = useSnackbar();
  const subscribed = subscription.data?.plan.id;
  const currentPlanId: PlanId | null = isPlanId(subscribed) ? subscribed : (organizationPlan?.id ?? null);
  const freePlan = useFreePlan(currentPlanId ?? undefined) === true;

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
          onUpgrade={(planId, seats) => checkout.ask({ kind: "upgrade", planId, seats })}
        />
      ) : plans.error ? (
        <Alert severity="error">{plans.error.message}</Alert>
      ) : (
        <Skeleton variant="rounded" height={320} />
      )}
      <StorageAddOnCard
        freePlan={freePlan}
        busy={checkout.pending || !currentPlanId}
        upgradeLink={false}
        onBuy={(packs) => checkout.ask({ kind: "storage", packs })}
        autoAdd={
          <AutoAddStorageSwitch
            enabled={autoAdd.enabled}
            disabled={!subscription.data || autoAdd.saving}
            onChange={autoAdd.change}
          />
        }
      />
      <PaymentModals checkout={checkout} organizationId={organizationId} onPaid={reload} />
    </Box>
  );
}

/** The subscription with its auto-add-storage switch, and the storage add-on. */
function SubscriptionSection({ titled }: { titled: boolean }) {
  const { t } = useTranslation();
  const { organizationId, subscription, reload } = useCurrentSubscription();
  const autoAdd = useAutoAddStorageSetting(organizationId, subscription.data);
  const checkout = useStartCheckout(organizationId);
  const failed = Boolean(subscription.error) && !subscription.data;
  const subscribed = subscription.data?.plan.id;
  const freePlan = useFreePlan(isPlanId(subscribed) ? subscribed : undefined) === true;

  return (
    <>
      {subscription.error && (
        <RetryableError
          testId="subscription-error"
          message={subscription.error.message || t("common.somethingWentWrong")}
          retryLabel={t("billing.subscription.retry")}
          onRetry={() => void subscription.refetch()}
        />
      )}
      <SubscriptionCard
        subscription={subscription.data}
        failed={failed}
        titled={titled}
        autoAdd={
          <AutoAddStorageSwitch
            enabled={autoAdd.enabled}
            disabled={!subscription.data || autoAdd.saving}
            onChange={autoAdd.change}
          />
        }
      />
      <StorageAddOnCard
        freePlan={freePlan}
        busy={checkout.pending || !subscription.data}
        upgradeLink
        onBuy={(packs) => checkout.ask({ kind: "storage", packs })}
      />
      <PaymentModals checkout={checkout} organizationId={organizationId} onPaid={reload} />
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
