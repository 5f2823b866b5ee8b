import CancelOutlined from "@mui/icons-material/CancelOutlined";
import CheckCircleOutline from "@mui/icons-material/CheckCircleOutlineOutlined";
import ErrorOutline from "@mui/icons-material/ErrorOutlineOutlined";
import HourglassEmpty from "@mui/icons-material/HourglassEmpty";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Typography from "@mui/material/Typography";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import "../i18n/register";
import { SUPPORT_EMAIL } from "@/config/constants";
import { useSession } from "@/lib/session";
import { useSnackbar } from "@/lib/snackbar";
import { useCheckoutReturn } from "../hooks/use-checkout-return";

const ICONS = {
  paid: <CheckCircleOutline color="success" sx={{ fontSize: 48 }} />,
  failed: <ErrorOutline color="error" sx={{ fontSize: 48 }} />,
  pending: <HourglassEmpty color="warning" sx={{ fontSize: 48 }} />,
  cancelled: <CancelOutlined color="disabled" sx={{ fontSize: 48 }} />,
} as const;

/**
 * The payment modal (docs/requirements.md#screens-and-navigation, #states-and-flows): shown on the return from the payment page, it waits for the payment's
 * outcome and shows success, failed, pending or cancelled. A success refreshes the session (plan, storage
 * banner) and the screen's own data (`onPaid`).
 */
export function PaymentModal({ organizationId, onPaid }: { organizationId: string | null; onPaid(): void }) {
  const { t } = useTranslation();
  const { refresh } = useSession();
  const { show } = useSnackbar();
  const { checkoutId, outcome, payment, close } = useCheckoutReturn(organizationId);
  const reported = useRef<string | null>(null);
  const storage = payment?.purchase.kind === "storage";

  useEffect(() => {
    if (!checkoutId || !outcome || reported.current === checkoutId) return;
    reported.current = checkoutId;
    if (outcome === "paid") {
      show({
        text: storage ? t("billing.messages.storagePurchased") : t("billing.messages.paymentSuccessful"),
        isError: false,
      });
      onPaid();
    }
    // The plan, seats and maximum storage (storage banner) may have changed.
    refresh().catch((error: unknown) => console.warn("The session could not be refreshed", error));
  }, [checkoutId, outcome, storage, show, t, onPaid, refresh]);

  if (!checkoutId) return null;
  return (
    <Dialog
      open
      onClose={outcome ? close : undefined}
      maxWidth="xs"
      fullWidth
      data-testid="payment-modal"
      data-outcome={outcome ?? "checking"}
      aria-labelledby="payment-modal-title"
    >
      <DialogTitle id="payment-modal-title">
        {outcome ? t(`billing.payment.titles.${outcome}`) : t("billing.payment.checking")}
      </DialogTitle>
      <DialogContent>
        <Box sx={{ display: "flex", flexDirection: "column", alignItems: "center", gap: 2, py: 1 }}>
          {outcome ? ICONS[outcome] : <CircularProgress aria-label={t("billing.payment.checking")} />}
          {outcome && (
            <Typography align="center" data-testid="payment-message">
              {outcome === "paid" && storage
                ? t("billing.payment.storagePaid")
                : t(`billing.payment.${outcome}`)}
            </Typography>
          )}
        </Box>
      </DialogContent>
      {outcome && (
        <DialogActions>
          {outcome === "failed" && (
            <Button href={`mailto:${SUPPORT_EMAIL}`}>{t("billing.payment.contactSupport")}</Button>
          )}
          <Button variant="contained" onClick={close}>
            {t("billing.payment.close")}
          </Button>
        </DialogActions>
      )}
    </Dialog>
  );
}
