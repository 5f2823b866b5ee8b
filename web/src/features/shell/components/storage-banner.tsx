import CloseIcon from "@mui/icons-material/Close";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router-dom";
import { STORAGE_NAMESPACE } from "@/config/constants";
import { paths } from "@/config/paths";
import { useSession } from "@/lib/session";
import { NO_DISMISSALS, storageBanner, type StorageBannerDismissals } from "@/lib/storage-banner";

/** Browser storage entry of the banner dismissals (docs/requirements.md#data-the-console-shows); they outlive a logout. */
export const STORAGE_BANNER_KEY = `${STORAGE_NAMESPACE}:storageBannerDismissals`;

function readDismissals(): StorageBannerDismissals {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(STORAGE_BANNER_KEY) ?? "null");
    if (typeof parsed === "object" && parsed !== null) {
      const value = parsed as Record<string, unknown>;
      return { threshold: value.threshold === true, limit: value.limit === true };
    }
  } catch (error) {
    console.warn("Storage banner dismissals could not be read", error);
  }
  return { ...NO_DISMISSALS };
}

function writeDismissals(dismissals: StorageBannerDismissals): void {
  try {
    window.localStorage.setItem(STORAGE_BANNER_KEY, JSON.stringify(dismissals));
  } catch (error) {
    console.warn("Storage banner dismissals could not be saved", error);
  }
}

/** The storage warning at the top of the app (docs/requirements.md#screens-and-navigation, #states-and-flows) with its upgrade call to action. */
export function StorageBanner() {
  const { t } = useTranslation();
  const { organizationDetails } = useSession();
  const [dismissed, setDismissed] = useState(readDismissals);
  const banner = useMemo(
    () => storageBanner(organizationDetails?.totalStorage, organizationDetails?.maximumStorage, dismissed),
    [organizationDetails, dismissed],
  );

  // Usage falling under a threshold resets its dismissal, in storage too.
  useEffect(() => {
    if (banner.dismissals.threshold !== dismissed.threshold || banner.dismissals.limit !== dismissed.limit) {
      writeDismissals(banner.dismissals);
      setDismissed(banner.dismissals);
    }
  }, [banner.dismissals, dismissed]);

  if (banner.kind === "none") return null;
  const close = () => {
    const next = { ...dismissed, [banner.kind]: true };
    writeDismissals(next);
    setDismissed(next);
  };
  return (
    <Alert
      severity={banner.kind === "limit" ? "error" : "warning"}
      data-testid="storage-banner"
      data-kind={banner.kind}
      sx={{ borderRadius: 0, alignItems: "center" }}
      // With an action MUI renders no close button of its own: the banner brings both.
      action={
        <>
          <Button component={RouterLink} to={paths.app.plans.getHref()} color="inherit" size="small">
            {t("storageBanner.upgrade")}
          </Button>
          <IconButton aria-label={t("storageBanner.close")} color="inherit" size="small" onClick={close}>
            <CloseIcon fontSize="small" />
          </IconButton>
        </>
      }
    >
      {t(banner.kind === "limit" ? "storageBanner.full" : "storageBanner.almost", {
        percent: banner.percent,
      })}
    </Alert>
  );
}
