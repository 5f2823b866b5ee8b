import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Typography from "@mui/material/Typography";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router-dom";
import { ONBOARDING_STEP_COUNT, PATHS_WITHOUT_LOGOUT } from "@/config/paths";
import { LanguageMenu } from "@/components/ui/language-menu";
import { Logo } from "@/components/ui/logo";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { logout } from "@/lib/auth";
import { useSession } from "@/lib/session";

interface OnboardingLayoutProps {
  title: string;
  /**
   * Whether to offer Logout. By default (docs/requirements.md#screens-and-navigation): to a signed-in user on every onboarding page except
   * login, sign-up and step 2.
   */
  showLogout?: boolean;
  children?: ReactNode;
}

/**
 * The layout of sign-up, login and the onboarding pages: "Step N / 3" (the session's current step) when
 * connected, and the Logout button by the rule above. Logout leads to sign-up (through the route guard).
 */
export function OnboardingLayout({ title, showLogout, children }: OnboardingLayoutProps) {
  const { t } = useTranslation();
  const session = useSession();
  const { pathname } = useLocation();
  const [loggingOut, setLoggingOut] = useState(false);
  useEffect(() => {
    document.title = `${title} · ${t("app.name")}`;
  }, [title, t]);
  const logoutOffered =
    showLogout ?? (session.status !== "signed-out" && !PATHS_WITHOUT_LOGOUT.includes(pathname));
  const onLogout = () => {
    setLoggingOut(true);
    logout().catch((error: unknown) => {
      console.warn("Logout failed", error);
      setLoggingOut(false);
    });
  };
  return (
    <Box sx={{ minHeight: "100vh", display: "flex", flexDirection: "column", bgcolor: "background.default" }}>
      <Box
        component="header"
        sx={{ display: "flex", alignItems: "center", gap: 1, px: { xs: 2, md: 4 }, py: 2 }}
      >
        <Logo />
        <Box sx={{ flexGrow: 1 }} />
        {session.connected && (
          <Typography variant="subtitle2" color="text.secondary" data-testid="onboarding-step">
            {t("onboarding.step", { step: session.onboardingStep, total: ONBOARDING_STEP_COUNT })}
          </Typography>
        )}
        <LanguageMenu />
        <ThemeToggle />
        {logoutOffered && (
          <Button variant="outlined" onClick={onLogout} disabled={loggingOut}>
            {t("onboarding.logout")}
          </Button>
        )}
      </Box>
      <Box component="main" sx={{ flexGrow: 1, display: "grid", placeItems: "center", px: 2, pb: 6 }}>
        <Card sx={{ width: "100%", maxWidth: 560 }}>
          <CardContent sx={{ display: "flex", flexDirection: "column", gap: 2, p: 4 }}>
            <Typography variant="h4" component="h1">
              {title}
            </Typography>
            {children}
          </CardContent>
        </Card>
      </Box>
    </Box>
  );
}
