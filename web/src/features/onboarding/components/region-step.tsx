import Alert from "@mui/material/Alert";
import AlertTitle from "@mui/material/AlertTitle";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import CircularProgress from "@mui/material/CircularProgress";
import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Typography from "@mui/material/Typography";
import { useFormik } from "formik";
import { useState } from "react";
import * as yup from "yup";
import { isRegionId } from "@alpvault/contracts/regions";
import { useSession } from "@/lib/session";
import { useCreateOrganization } from "../api/create-organization";
import { useOnboardingTranslation } from "../i18n/texts";

interface RegionForm {
  regionId: string;
  confirmed: boolean;
}

/**
 * Step 3 (docs/requirements.md#states-and-flows, #validation): choose the backup region, confirm that the choice is irreversible, and set up the
 * subscription (POST /v1/organizations). A failure offers Retry; success refreshes the session, and the
 * route guard continues to /resources.
 */
export function RegionStep() {
  const { t } = useOnboardingTranslation();
  const { regions, refresh } = useSession();
  const { create, submitting, error } = useCreateOrganization();
  const [refreshError, setRefreshError] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);

  const setUp = async ({ regionId }: RegionForm) => {
    const region = regions.find((candidate) => candidate.id === regionId);
    if (!isRegionId(regionId) || !region) return;
    setRefreshError(null);
    if (!(await create(region))) return;
    setFinishing(true);
    try {
      await refresh();
    } catch (caught) {
      setFinishing(false);
      setRefreshError(caught instanceof Error ? caught.message : String(caught));
    }
  };

  const form = useFormik<RegionForm>({
    initialValues: { regionId: "", confirmed: false },
    validationSchema: yup.object({
      regionId: yup.string().required(t("onboarding.step3.regionRequired")),
      confirmed: yup.boolean().oneOf([true], t("onboarding.step3.confirmationRequired")),
    }),
    onSubmit: setUp,
  });

  const busy = submitting || finishing;
  const regionError = form.submitCount > 0 ? form.errors.regionId : undefined;
  const confirmError = form.submitCount > 0 ? form.errors.confirmed : undefined;

  return (
    <Box
      component="form"
      noValidate
      onSubmit={form.handleSubmit}
      sx={{ display: "flex", flexDirection: "column", gap: 2 }}
    >
      <Typography color="text.secondary">{t("onboarding.step3.intro")}</Typography>
      {regions.length === 0 && <Alert severity="warning">{t("onboarding.step3.noRegions")}</Alert>}
      <FormControl error={Boolean(regionError)} disabled={busy}>
        <FormLabel id="region-label">{t("onboarding.step3.regionLabel")}</FormLabel>
        <RadioGroup
          aria-labelledby="region-label"
          name="regionId"
          value={form.values.regionId}
          onChange={form.handleChange}
        >
          {regions.map((region) => (
            <FormControlLabel
              key={region.id}
              value={region.id}
              control={<Radio />}
              label={
                <Box>
                  <Typography component="span">{region.label}</Typography>{" "}
                  <Typography component="span" variant="body2" color="text.secondary">
                    {t("onboarding.step3.location", { location: region.location })}
                  </Typography>
                </Box>
              }
            />
          ))}
        </RadioGroup>
        {regionError && <FormHelperText>{regionError}</FormHelperText>}
      </FormControl>
      <FormControl error={Boolean(confirmError)} disabled={busy}>
        <FormControlLabel
          control={<Checkbox name="confirmed" checked={form.values.confirmed} onChange={form.handleChange} />}
          label={t("onboarding.step3.confirmIrreversible")}
        />
        {confirmError && <FormHelperText data-testid="confirmation-error">{confirmError}</FormHelperText>}
      </FormControl>
      {error && (
        <Alert
          severity="error"
          data-testid="subscription-setup-error"
          action={
            <Button color="inherit" size="small" disabled={busy} onClick={() => void setUp(form.values)}>
              {t("onboarding.step3.retry")}
            </Button>
          }
        >
          <AlertTitle>{t("onboarding.step3.failed")}</AlertTitle>
          {error.message}
        </Alert>
      )}
      {refreshError && <Alert severity="error">{refreshError}</Alert>}
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={busy}
        startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
      >
        {busy ? t("onboarding.step3.settingUp") : t("onboarding.step3.confirm")}
      </Button>
    </Box>
  );
}
