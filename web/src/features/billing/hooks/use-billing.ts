import type { Purchase } from "@alpvault/contracts/billing";
import type { SubscriptionDetails } from "@alpvault/contracts/organizations";
import { CHECKOUT_QUERY_PARAMETER } from "@alpvault/contracts/billing";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSession } from "@/lib/session";
import { useSnackbar } from "@/lib/snackbar";
import { asApiError } from "@/lib/query";
import { useCreateCheckout } from "../api/create-checkout";
import { subscriptionKeys, useSubscription } from "../api/get-subscription";
import { useSetAutoAddSeats } from "../api/set-auto-add-seats";
import { useSetAutoAddStorage } from "../api/set-auto-add-storage";

/**
 * The current organisation's subscription (region host) and a way to reload it. A failed read shows the
 * answer's message in an error snackbar (docs/requirements.md#errors-and-messages); the screens then stop
 * loading and say the figures are unavailable.
 */
export function useCurrentSubscription() {
  const session = useSession();
  const { show } = useSnackbar();
  const organization = session.organizations[0] ?? null;
  const reference = organization?.subscriptions.find((candidate) => Boolean(candidate.region)) ?? null;
  const subscription = useSubscription(session.organizationId, reference);
  const client = useQueryClient();
  const { organizationId } = session;
  const reload = useCallback(
    () => void client.invalidateQueries({ queryKey: subscriptionKeys.all(organizationId) }),
    [client, organizationId],
  );
  const { error } = subscription;
  useEffect(() => {
    if (error) show({ text: error.message, isError: true });
  }, [error, show]);
  return { organizationId, subscription, reload };
}

/**
 * A purchase through the payment modal: `ask` opens it on the purchase; `confirm` creates the checkout and
 * opens the payment page, which sends the admin back here with `?checkout=<id>`, where the payment modal
 * shows the outcome. A refused checkout closes the modal with the answer's message.
 */
export function useStartCheckout(organizationId: string | null) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const checkout = useCreateCheckout();
  const [purchase, setPurchase] = useState<Purchase | null>(null);
  const [opening, setOpening] = useState(false);
  const ask = useCallback((wanted: Purchase) => setPurchase(wanted), []);
  const cancel = useCallback(() => setPurchase(null), []);
  const confirm = useCallback(() => {
    if (!organizationId || !purchase) return;
    const returnUrl = new URL(window.location.href);
    returnUrl.searchParams.delete(CHECKOUT_QUERY_PARAMETER);
    returnUrl.hash = "";
    setOpening(true);
    checkout.run(organizationId, purchase, returnUrl.href).then(
      ({ url }) => window.location.assign(url),
      (error: unknown) => {
        const apiError = asApiError(error);
        const text =
          purchase.kind === "storage" && apiError.code >= 500
            ? t("billing.messages.storagePurchaseFailed")
            : apiError.message;
        setOpening(false);
        setPurchase(null);
        show({ text, isError: true });
      },
    );
  }, [organizationId, purchase, checkout, show, t]);
  return { purchase, opening, ask, cancel, confirm, pending: checkout.pending || opening };
}

/** One of the account's switches as shown: saved on change, reverting with the required text on failure. */
function useAccountSwitch(
  organizationId: string | null,
  saved: boolean | undefined,
  save: (organizationId: string, enabled: boolean) => Promise<boolean>,
  saving: boolean,
  texts: { on: string; off: string },
) {
  const { t } = useTranslation();
  const { show } = useSnackbar();
  const [enabled, setEnabled] = useState(false);
  useEffect(() => {
    if (saved !== undefined) setEnabled(saved);
  }, [saved]);
  const change = useCallback(
    (wanted: boolean) => {
      if (!organizationId) return;
      setEnabled(wanted);
      save(organizationId, wanted).then(
        (answer) => {
          setEnabled(answer);
          show({ text: answer ? texts.on : texts.off, isError: false });
        },
        (error: unknown) => {
          setEnabled(!wanted);
          const apiError = asApiError(error);
          const text = apiError.code === 403 ? apiError.message : t("billing.messages.autoAddFailed");
          show({ text, isError: true });
        },
      );
    },
    [organizationId, save, show, t, texts.on, texts.off],
  );
  return { enabled, saving, change };
}

/**
 * The auto-add-storage setting as shown: it follows the switch at once, is saved, and reverts with the
 * required error text when saving fails (docs/requirements.md#errors-and-messages).
 */
export function useAutoAddStorageSetting(
  organizationId: string | null,
  subscription: SubscriptionDetails | undefined,
) {
  const { t } = useTranslation();
  const toggle = useSetAutoAddStorage();
  const { run } = toggle;
  const save = useCallback(
    async (id: string, enabled: boolean) => (await run(id, enabled)).autoAddStorage,
    [run],
  );
  return useAccountSwitch(organizationId, subscription?.autoAddStorage, save, toggle.pending, {
    on: t("billing.messages.autoAddOn"),
    off: t("billing.messages.autoAddOff"),
  });
}

/** The auto-add-seats setting as shown (paid plans); turned on, the seats of mailboxes beyond them are added. */
export function useAutoAddSeatsSetting(
  organizationId: string | null,
  subscription: SubscriptionDetails | undefined,
  onSaved: () => void,
) {
  const { t } = useTranslation();
  const toggle = useSetAutoAddSeats();
  const { run } = toggle;
  const save = useCallback(
    async (id: string, enabled: boolean) => {
      const answer = (await run(id, enabled)).autoAddSeats;
      onSaved();
      return answer;
    },
    [run, onSaved],
  );
  return useAccountSwitch(organizationId, subscription?.autoAddSeats, save, toggle.pending, {
    on: t("billing.messages.autoAddSeatsOn"),
    off: t("billing.messages.autoAddSeatsOff"),
  });
}
