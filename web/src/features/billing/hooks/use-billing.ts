import type { Purchase } from "@alpvault/contracts/billing";
import { CHECKOUT_QUERY_PARAMETER } from "@alpvault/contracts/billing";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useSession } from "@/lib/session";
import { useSnackbar } from "@/lib/snackbar";
import { asApiError } from "@/lib/query";
import { useCreateCheckout } from "../api/create-checkout";
import { subscriptionKeys, useSubscription } from "../api/get-subscription";

/** The current organisation's subscription (region host) and a way to reload it. */
export function useCurrentSubscription() {
  const session = useSession();
  const organization = session.organizations[0] ?? null;
  const reference = organization?.subscriptions.find((candidate) => Boolean(candidate.region)) ?? null;
  const subscription = useSubscription(session.organizationId, reference);
  const client = useQueryClient();
  const { organizationId } = session;
  const reload = useCallback(
    () => void client.invalidateQueries({ queryKey: subscriptionKeys.all(organizationId) }),
    [client, organizationId],
  );
  return { organizationId: session.organizationId, subscription, reload };
}

/**
 * Starts a checkout for a purchase and opens the payment page; the page sends the admin back here with
 * `?checkout=<id>`, where the payment modal takes over.
 */
export function useStartCheckout(organizationId: string | null) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const checkout = useCreateCheckout();
  const start = useCallback(
    (purchase: Purchase) => {
      if (!organizationId) return;
      const returnUrl = new URL(window.location.href);
      returnUrl.searchParams.delete(CHECKOUT_QUERY_PARAMETER);
      returnUrl.hash = "";
      checkout.run(organizationId, purchase, returnUrl.href).then(
        ({ url }) => window.location.assign(url),
        (error: unknown) => {
          const apiError = asApiError(error);
          const text =
            purchase.kind === "storage" && apiError.code >= 500
              ? t("billing.messages.storagePurchaseFailed")
              : apiError.message;
          show({ text, isError: true });
        },
      );
    },
    [organizationId, checkout, show, t],
  );
  return { start, pending: checkout.pending };
}
