import OpenInNew from "@mui/icons-material/OpenInNew";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { env } from "@/config/env";
import { useOnboardingTranslation } from "../i18n/texts";
import { VerifyInstallationButton } from "./verify-installation-button";

/** Where a super admin installs the Alpvault app for their domain. */
export const MARKETPLACE_URL = "https://workspace.google.com/marketplace/app/alpvault/104857600";

/** Emulator builds install the app on the Workspace emulator's own listing, so the demo is clickable. */
const marketplaceUrl = env.useEmulators ? env.marketplaceUrl : MARKETPLACE_URL;

/** Step 1 (docs/requirements.md#states-and-flows): install the app, then verify the installation. */
export function AppInstallStep() {
  const { t } = useOnboardingTranslation();
  return (
    <>
      <Typography data-testid="app-install-instructions" sx={{ fontWeight: 600 }}>
        {ORGANIZATION_MESSAGES.notInstalled}
      </Typography>
      <Typography color="text.secondary">{t("onboarding.step1.details")}</Typography>
      <Button
        variant="outlined"
        endIcon={<OpenInNew />}
        href={marketplaceUrl}
        data-testid="marketplace-link"
        target="_blank"
        rel="noopener noreferrer"
      >
        {t("onboarding.step1.marketplace")}
      </Button>
      <VerifyInstallationButton />
    </>
  );
}
