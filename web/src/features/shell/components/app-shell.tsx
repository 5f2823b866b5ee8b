import MenuIcon from "@mui/icons-material/Menu";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import Drawer from "@mui/material/Drawer";
import IconButton from "@mui/material/IconButton";
import Toolbar from "@mui/material/Toolbar";
import { useTheme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useNavigate } from "react-router-dom";
import { DRAWER_WIDTH } from "@/config/constants";
import { paths } from "@/config/paths";
import { LanguageMenu } from "@/components/ui/language-menu";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { logout, useCurrentUser } from "@/lib/auth";
import { DebugPanel, isDebugAccount } from "./debug-panel";
import { ProfileMenu } from "./profile-menu";
import { SideNav } from "./side-nav";
import { StorageBanner } from "./storage-banner";

/**
 * Navigation and header of the signed-in app (spec §2). The drawer is permanent from the `lg`
 * breakpoint and temporary below it.
 */
export function AppShell() {
  const { t } = useTranslation();
  const theme = useTheme();
  const permanent = useMediaQuery(theme.breakpoints.up("lg"), { noSsr: true });
  const [open, setOpen] = useState(false);
  const user = useCurrentUser();
  const navigate = useNavigate();

  const handleLogout = () => {
    void logout().then(() => navigate(paths.auth.signUp.getHref(), { replace: true }));
  };

  const nav = (
    <SideNav
      onNavigate={permanent ? undefined : () => setOpen(false)}
      footer={user && isDebugAccount(user) ? <DebugPanel user={user} /> : null}
    />
  );

  return (
    <Box sx={{ display: "flex", minHeight: "100vh", bgcolor: "background.default" }}>
      <Drawer
        variant={permanent ? "permanent" : "temporary"}
        open={permanent || open}
        onClose={() => setOpen(false)}
        ModalProps={{ keepMounted: true }}
        data-testid="nav-drawer"
        sx={{
          width: permanent ? DRAWER_WIDTH : 0,
          flexShrink: 0,
          "& .MuiDrawer-paper": { width: DRAWER_WIDTH, boxSizing: "border-box" },
        }}
      >
        {nav}
      </Drawer>
      <Box sx={{ flexGrow: 1, minWidth: 0, display: "flex", flexDirection: "column" }}>
        <AppBar position="sticky">
          <Toolbar sx={{ gap: 1 }}>
            {!permanent && (
              <IconButton edge="start" aria-label={t("nav.openMenu")} onClick={() => setOpen(true)}>
                <MenuIcon />
              </IconButton>
            )}
            <Box sx={{ flexGrow: 1 }} />
            <LanguageMenu />
            <ThemeToggle />
            {user && <ProfileMenu user={user} onLogout={handleLogout} />}
          </Toolbar>
        </AppBar>
        <StorageBanner />
        <Box component="main" sx={{ flexGrow: 1, p: { xs: 2, md: 4 } }}>
          <Outlet />
        </Box>
      </Box>
    </Box>
  );
}
