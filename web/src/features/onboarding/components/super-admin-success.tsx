import CheckCircleOutlined from "@mui/icons-material/CheckCircleOutlined";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import { useLocation, useNavigate } from "react-router-dom";
import { paths, withAppParameter } from "@/config/paths";
import { useSession } from "@/lib/session";
import { useOnboardingTranslation } from "../i18n/texts";

/** The super-admin success page: the new account is a super admin; continue to the region step. */
export function SuperAdminSuccess() {
  const { t } = useOnboardingTranslation();
  const { email } = useSession();
  const navigate = useNavigate();
  const { search } = useLocation();
  const domain = email?.split("@")[1] ?? "";
  return (
    <>
      <Alert severity="success" icon={<CheckCircleOutlined />} data-testid="super-admin-success">
        {t("onboarding.superAdminSuccess.message", { email, domain })}
      </Alert>
      <Button
        variant="contained"
        size="large"
        // navigate() settles once the route has loaded and never rejects (a route's errors show in its error element).
        onClick={() => void navigate(withAppParameter(paths.onboarding.step3.getHref(), search))}
      >
        {t("onboarding.superAdminSuccess.continue")}
      </Button>
    </>
  );
}
