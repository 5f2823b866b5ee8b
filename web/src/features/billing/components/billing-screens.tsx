import Alert from "@mui/material/Alert";
import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import type { SubscriptionDetails } from "@alpvault/contracts/organizations";
import { isPlanId, type PlanId } from "@alpvault/contracts/plans";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import "../i18n/register";
import { initials } from "@/lib/format";
import { RetryableError } from "@/components/ui/notices";
import { useFreePlan, useSession } from "@/lib/session";
import { useSnackbar } from "@/lib/snackbar";
import { usePlans } from "../api/get-plans";
import { useCurrentSubscription, useStartCheckout } from "../hooks/use-billing";
import { AutoAddSettings } from "./auto-add-settings";
import { CheckoutDialog } from "./checkout-dialog";
import { PaymentModal } from "./payment-modal";
import { PlanCards } from "./plan-cards";
import { SeatOverageAlert } from "./seat-overage-alert";
import { StorageAddOnCard } from "./storage-add-on-card";
import { SubscriptionCard } from "./subscription-card";

/** The subscription's plan id, when it has been read and names a plan. */
function subscribedPlanId(subscription: SubscriptionDetails | undefined): PlanId | undefined {
  const id = subscription?.plan.id;
  return isPlanId(id) ? id : undefined;
}

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
  const { show } = useSnackbar();
  const currentPlanId: PlanId | null = subscribedPlanId(subscription.data) ?? organizationPlan?.id ?? null;
  const freePlan = useFreePlan(currentPlanId ?? undefined) === true;

  useEffect(() => {
    if (plans.error) show({ text: plans.error.message, isError: true });
  }, [plans.error, show]);

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 3 }}>
      <SeatOverageAlert
        subscription={subscription.data}
        freePlan={freePlan}
        busy={checkout.pending}
        onAddSeats={(seats) =>
          currentPlanId && checkout.ask({ kind: "upgrade", planId: currentPlanId, seats })
        }
      />
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
          <AutoAddSettings
            organizationId={organizationId}
            subscription={subscription.data}
            freePlan={freePlan}
            onSaved={reload}
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
  const checkout = useStartCheckout(organizationId);
  const failed = Boolean(subscription.error) && !subscription.data;
  const planId = subscribedPlanId(subscription.data);
  const freePlan = useFreePlan(planId) === true;

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
      <SeatOverageAlert
        subscription={subscription.data}
        freePlan={freePlan}
        busy={checkout.pending}
        onAddSeats={(seats) => planId && checkout.ask({ kind: "upgrade", planId, seats })}
      />
      <SubscriptionCard
        subscription={subscription.data}
        failed={failed}
        titled={titled}
        autoAdd={
          <AutoAddSettings
            organizationId={organizationId}
            subscription={subscription.data}
            freePlan={freePlan}
            onSaved={reload}
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
