import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Typography from "@mui/material/Typography";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { ONBOARDING_STEP_COUNT } from "@/config/paths";
import { LanguageMenu } from "@/components/ui/language-menu";
import { Logo } from "@/components/ui/logo";
import { ThemeToggle } from "@/components/ui/theme-toggle";

interface OnboardingLayoutProps {
  title: string;
  /** The onboarding step, shown as "Step N / 3" when connected; absent on login and sign-up. */
  step?: number;
  /** Logout is offered on every onboarding page except login, sign-up and step 2 (spec §2). */
  onLogout?: () => void;
  children?: ReactNode;
}

export function OnboardingLayout({ title, step, onLogout, children }: OnboardingLayoutProps) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${title} · ${t("app.name")}`;
  }, [title, t]);
  return (
    <Box sx={{ minHeight: "100vh", display: "flex", flexDirection: "column", bgcolor: "background.default" }}>
      <Box
        component="header"
        sx={{ display: "flex", alignItems: "center", gap: 1, px: { xs: 2, md: 4 }, py: 2 }}
      >
        <Logo />
        <Box sx={{ flexGrow: 1 }} />
        {step !== undefined && (
          <Typography variant="subtitle2" color="text.secondary" data-testid="onboarding-step">
            {t("onboarding.step", { step, total: ONBOARDING_STEP_COUNT })}
          </Typography>
        )}
        <LanguageMenu />
        <ThemeToggle />
        {onLogout && (
          <Button variant="outlined" onClick={onLogout}>
            {t("onboarding.logout")}
          </Button>
        )}
      </Box>
      <Box component="main" sx={{ flexGrow: 1, display: "grid", placeItems: "center", px: 2, pb: 6 }}>
        <Card sx={{ width: "100%", maxWidth: 520 }}>
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
