import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { MAX_STORAGE_PACKS } from "@alpvault/contracts/billing";
import {
  STORAGE_PACK_BYTES,
  STORAGE_PACK_PRICE_USD,
  storagePacksSubtotalUsd,
} from "@alpvault/contracts/plans";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import "../i18n/register";
import { paths } from "@/config/paths";
import { formatGigabytes, formatPrice } from "@/lib/format";

function validPacks(value: string): number | null {
  const packs = Number(value);
  return value.trim() !== "" && Number.isInteger(packs) && packs >= 1 && packs <= MAX_STORAGE_PACKS
    ? packs
    : null;
}

/**
 * The storage add-on (docs/requirements.md#screens-and-navigation, #who-may-do-what, #constants-and-limits): packs of 100 GB, subtotal packs × price; blocked on the free plan
 * with an upgrade prompt (`upgradeLink`: a link to the plans, where the prompt is not on them already).
 */
export function StorageAddOnCard({
  freePlan,
  busy,
  upgradeLink,
  onBuy,
  autoAdd,
}: {
  freePlan: boolean;
  busy: boolean;
  upgradeLink: boolean;
  onBuy(packs: number): void;
  /** The auto-add-storage setting, where the page does not show it elsewhere. */
  autoAdd?: ReactNode;
}) {
  const { t } = useTranslation();
  const [packsText, setPacksText] = useState("1");
  const packs = validPacks(packsText);
  return (
    <Card variant="outlined" data-testid="storage-add-on">
      <CardContent sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <Typography variant="h6" component="h2">
          {t("billing.storage.title")}
        </Typography>
        <Typography color="text.secondary">
          {t("billing.storage.description", {
            size: formatGigabytes(STORAGE_PACK_BYTES, 0),
            price: formatPrice(STORAGE_PACK_PRICE_USD),
          })}
        </Typography>
        {freePlan && (
          <Alert
            severity="info"
            data-testid="storage-blocked"
            action={
              upgradeLink ? (
                <Button component={RouterLink} to={paths.app.plans.getHref()} color="inherit" size="small">
                  {t("billing.storage.upgrade")}
                </Button>
              ) : undefined
            }
          >
            {t("billing.storage.blocked")}
          </Alert>
        )}
        <Box sx={{ display: "flex", flexWrap: "wrap", alignItems: "center", gap: 2 }}>
          <TextField
            label={t("billing.storage.packs")}
            type="number"
            size="small"
            disabled={freePlan}
            value={packsText}
            onChange={(event) => setPacksText(event.target.value)}
            error={!freePlan && packs === null}
            helperText={!freePlan && packs === null ? t("billing.storage.packsInvalid") : undefined}
            slotProps={{ htmlInput: { min: 1, max: MAX_STORAGE_PACKS, "data-testid": "storage-packs" } }}
            sx={{ width: 160 }}
          />
          <Typography data-testid="storage-subtotal">
            {t("billing.plans.subtotal", { amount: formatPrice(storagePacksSubtotalUsd(packs ?? 0)) })}
          </Typography>
          <Button
            variant="contained"
            disabled={freePlan || busy || packs === null}
            onClick={() => packs !== null && onBuy(packs)}
          >
            {t("billing.storage.buy")}
          </Button>
        </Box>
        {autoAdd}
      </CardContent>
    </Card>
  );
}
