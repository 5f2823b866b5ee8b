import MenuIcon from "@mui/icons-material/Menu";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Toolbar from "@mui/material/Toolbar";
import { useTheme } from "@mui/material/styles";
import useMediaQuery from "@mui/material/useMediaQuery";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Outlet, useNavigate } from "react-router-dom";
import { DRAWER_WIDTH } from "@/config/constants";
import { paths } from "@/config/paths";
import { LanguageMenu } from "@/components/ui/language-menu";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { logout, useCurrentUser } from "@/lib/auth";
import { DebugPanel, isDebugAccount } from "./debug-panel";
import { ProfileMenu } from "./profile-menu";
import { NavRail, SideNav } from "./side-nav";
import { StorageBanner } from "./storage-banner";

/** The temporary drawer below the `lg` breakpoint: loaded only on narrow screens. */
const MobileDrawer = lazy(() => import("./mobile-drawer"));

/**
 * Navigation and header of the signed-in app (docs/requirements.md#screens-and-navigation). The drawer (300 wide) is permanent from the
 * `lg` breakpoint; below it the drawer is temporary, opened from the menu button or by a touch swipe
 * from the left edge (25 px), and an icon rail (56 wide) keeps the four entries in reach (docs/requirements.md#constants-and-limits).
 */
/** The shell; `debug` is shown in the debug block, to the one test account only. */
export function AppShell({ debug }: { debug?: ReactNode } = {}) {
  const { t } = useTranslation();
  const theme = useTheme();
  const permanent = useMediaQuery(theme.breakpoints.up("lg"), { noSsr: true });
  const [open, setOpen] = useState(false);
  const user = useCurrentUser();
  const navigate = useNavigate();

  const handleLogout = () => {
    void logout().then(() => navigate(paths.auth.signUp.getHref(), { replace: true }));
  };

  const menuButton = (
    <IconButton aria-label={t("nav.openMenu")} onClick={() => setOpen(true)}>
      <MenuIcon />
    </IconButton>
  );

  const nav = (
    <SideNav
      onNavigate={permanent ? undefined : () => setOpen(false)}
      footer={user && isDebugAccount(user) ? <DebugPanel user={user}>{debug}</DebugPanel> : null}
    />
  );

  return (
    <Box sx={{ display: "flex", minHeight: "100vh", bgcolor: "background.default" }}>
      {permanent ? (
        // A fixed panel (MUI's Drawer would bring its modal and slide along for the permanent case too).
        <Box component="nav" data-testid="nav-drawer" sx={{ width: DRAWER_WIDTH, flexShrink: 0 }}>
          <Box
            data-testid="nav-panel"
            sx={{
              position: "fixed",
              top: 0,
              left: 0,
              height: "100%",
              width: DRAWER_WIDTH,
              boxSizing: "border-box",
              display: "flex",
              flexDirection: "column",
              overflowY: "auto",
              borderRight: 1,
              borderColor: "divider",
              bgcolor: "background.default",
              zIndex: (theme) => theme.zIndex.drawer,
            }}
          >
            {nav}
          </Box>
        </Box>
      ) : (
        <>
          <NavRail menuButton={menuButton} />
          <Suspense fallback={null}>
            <MobileDrawer open={open} onOpen={() => setOpen(true)} onClose={() => setOpen(false)}>
              {nav}
            </MobileDrawer>
          </Suspense>
        </>
      )}
      <Box sx={{ flexGrow: 1, minWidth: 0, display: "flex", flexDirection: "column" }}>
        <AppBar position="sticky">
          <Toolbar sx={{ gap: 1 }}>
            {!permanent && <Box sx={{ display: { sm: "none" } }}>{menuButton}</Box>}
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
