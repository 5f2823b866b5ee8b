import CheckOutlined from "@mui/icons-material/CheckOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardActions from "@mui/material/CardActions";
import CardContent from "@mui/material/CardContent";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { MAX_SEATS, type PlanOffer } from "@alpvault/contracts/billing";
import { planRank, seatsSubtotalUsd, type PlanId } from "@alpvault/contracts/plans";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import "../i18n/register";
import { SUPPORT_EMAIL } from "@/config/constants";
import { formatGigabytes, formatPrice } from "@/lib/format";

function validSeats(value: string): number | null {
  const seats = Number(value);
  return value.trim() !== "" && Number.isInteger(seats) && seats >= 1 && seats <= MAX_SEATS ? seats : null;
}

function PlanCard({
  plan,
  currentPlanId,
  defaultSeats,
  busy,
  onUpgrade,
}: {
  plan: PlanOffer;
  currentPlanId: PlanId | null;
  defaultSeats: number;
  busy: boolean;
  onUpgrade(planId: PlanId, seats: number): void;
}) {
  const { t } = useTranslation();
  // The seats in use until the admin types their own (a late subscription answer does not overwrite them).
  const [typedSeats, setSeatsText] = useState<string | null>(null);
  const seatsText = typedSeats ?? String(defaultSeats);
  const seats = validSeats(seatsText);
  const current = plan.id === currentPlanId;
  const higher = currentPlanId !== null && planRank(plan.id) > planRank(currentPlanId);
  const lower = currentPlanId !== null && planRank(plan.id) < planRank(currentPlanId);
  const features = [
    plan.maxUsers === null
      ? t("billing.plans.usersChosen")
      : t("billing.plans.users", { count: plan.maxUsers }),
    t("billing.plans.storagePerUser", { storage: formatGigabytes(plan.storagePerUserBytes, 0) }),
    t("billing.plans.backupsPerDay", { count: plan.backupsPerDay }),
    plan.services.length > 2 ? t("billing.plans.services.all") : t("billing.plans.services.gmailDrive"),
  ];
  return (
    <Card
      variant="outlined"
      data-testid={`plan-${plan.id}`}
      data-current={current ? "true" : "false"}
      sx={{
        display: "flex",
        flexDirection: "column",
        borderColor: current ? "primary.main" : undefined,
        borderWidth: current ? 2 : undefined,
      }}
    >
      <CardContent sx={{ flexGrow: 1 }}>
        <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", gap: 1 }}>
          <Typography variant="h5" component="h2">
            {plan.name}
          </Typography>
          {current && <Chip color="primary" size="small" label={t("billing.plans.current")} />}
        </Box>
        <Typography variant="h6" component="p" color="text.secondary" sx={{ mt: 1 }}>
          {plan.pricePerUserMonthlyUsd === 0
            ? t("billing.plans.free")
            : t("billing.plans.perUser", { price: formatPrice(plan.pricePerUserMonthlyUsd) })}
        </Typography>
        <List dense>
          {features.map((feature) => (
            <ListItem key={feature} disableGutters>
              <ListItemIcon sx={{ minWidth: 32 }}>
                <CheckOutlined fontSize="small" color="success" />
              </ListItemIcon>
              <ListItemText primary={feature} />
            </ListItem>
          ))}
        </List>
        {current && plan.id === "zurich" && (
          <Typography variant="body2" color="text.secondary">
            {t("billing.plans.maximum")}
          </Typography>
        )}
      </CardContent>
      {higher && (
        <CardActions sx={{ flexDirection: "column", alignItems: "stretch", gap: 1, px: 2, pb: 2 }}>
          <TextField
            label={t("billing.plans.seats")}
            type="number"
            size="small"
            value={seatsText}
            onChange={(event) => setSeatsText(event.target.value)}
            error={seats === null}
            helperText={seats === null ? t("billing.plans.seatsInvalid") : undefined}
            slotProps={{ htmlInput: { min: 1, max: MAX_SEATS, "data-testid": `seats-${plan.id}` } }}
          />
          <Typography variant="body2" data-testid={`subtotal-${plan.id}`}>
            {t("billing.plans.subtotal", { amount: formatPrice(seatsSubtotalUsd(plan, seats ?? 0)) })}
          </Typography>
          <Button
            variant="contained"
            disabled={busy || seats === null}
            onClick={() => seats !== null && onUpgrade(plan.id, seats)}
            sx={{ ml: "0 !important" }}
          >
            {t("billing.plans.upgrade")}
          </Button>
        </CardActions>
      )}
      {lower && (
        <CardActions sx={{ px: 2, pb: 2 }}>
          <Link href={`mailto:${SUPPORT_EMAIL}`} data-testid={`downgrade-${plan.id}`}>
            {t("billing.plans.contactSupport")}
          </Link>
        </CardActions>
      )}
    </Card>
  );
}

/** The three plans (docs/requirements.md#data-the-console-shows) with their limits; the current one marked, upgrades with seats and subtotal. */
export function PlanCards({
  plans,
  currentPlanId,
  defaultSeats,
  busy,
  onUpgrade,
}: {
  plans: PlanOffer[];
  currentPlanId: PlanId | null;
  defaultSeats: number;
  busy: boolean;
  onUpgrade(planId: PlanId, seats: number): void;
}) {
  return (
    <Box
      data-testid="plans"
      sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "repeat(3, 1fr)" } }}
    >
      {plans.map((plan) => (
        <PlanCard
          key={plan.id}
          plan={plan}
          currentPlanId={currentPlanId}
          defaultSeats={defaultSeats}
          busy={busy}
          onUpgrade={onUpgrade}
        />
      ))}
    </Box>
  );
}
