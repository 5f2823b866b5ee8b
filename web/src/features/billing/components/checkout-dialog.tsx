import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import type { Purchase } from "@alpvault/contracts/billing";
import {
  PLANS,
  STORAGE_PACK_BYTES,
  seatsSubtotalUsd,
  storagePacksSubtotalUsd,
} from "@alpvault/contracts/plans";
import { useTranslation } from "react-i18next";
import "../i18n/register";
import { formatGigabytes, formatPrice } from "@/lib/format";

/** What the purchase buys and what it costs a month, as the payment page will show it. */
function PurchaseSummary({ purchase }: { purchase: Purchase }) {
  const { t } = useTranslation();
  const [what, amount] =
    purchase.kind === "upgrade"
      ? [
          t("billing.checkout.upgrade", {
            plan: PLANS[purchase.planId].name,
            count: purchase.seats,
          }),
          seatsSubtotalUsd(PLANS[purchase.planId], purchase.seats),
        ]
      : [
          t("billing.checkout.storage", {
            count: purchase.packs,
            storage: formatGigabytes(STORAGE_PACK_BYTES * purchase.packs, 0),
          }),
          storagePacksSubtotalUsd(purchase.packs),
        ];
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
      <Typography sx={{ fontWeight: 600 }} data-testid="checkout-purchase">
        {what}
      </Typography>
      <Typography data-testid="checkout-subtotal">
        {t("billing.plans.subtotal", { amount: formatPrice(amount) })}
      </Typography>
    </Box>
  );
}

/**
 * The payment modal before the checkout (docs/requirements.md#screens-and-navigation): the purchase and its monthly
 * subtotal, then, once confirmed, the wait while the secure payment page is prepared. Leaving for that
 * page is the admin's choice; cancelling buys nothing.
 */
export function CheckoutDialog({
  purchase,
  opening,
  onCancel,
  onContinue,
}: {
  purchase: Purchase | null;
  /** The checkout is being created; the browser leaves for the payment page next. */
  opening: boolean;
  onCancel(): void;
  onContinue(): void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={purchase !== null}
      onClose={opening ? undefined : onCancel}
      maxWidth="xs"
      fullWidth
      data-testid="payment-modal"
      data-outcome={opening ? "opening" : "review"}
      aria-labelledby="checkout-dialog-title"
    >
      <DialogTitle id="checkout-dialog-title">{t("billing.checkout.title")}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        {purchase && <PurchaseSummary purchase={purchase} />}
        <Typography variant="body2" color="text.secondary">
          {t("billing.checkout.explain")}
        </Typography>
        {opening && (
          <Box sx={{ display: "flex", alignItems: "center", gap: 1.5 }}>
            <CircularProgress size={20} aria-label={t("billing.checkout.opening")} />
            <Typography variant="body2">{t("billing.checkout.opening")}</Typography>
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={opening}>
          {t("billing.checkout.cancel")}
        </Button>
        <Button variant="contained" onClick={onContinue} disabled={opening}>
          {t("billing.checkout.continue")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
