import ContactSupportOutlined from "@mui/icons-material/ContactSupportOutlined";
import FeedbackOutlined from "@mui/icons-material/FeedbackOutlined";
import HelpCenterOutlined from "@mui/icons-material/HelpCenterOutlined";
import Inventory2Outlined from "@mui/icons-material/Inventory2Outlined";
import ManageSearchOutlined from "@mui/icons-material/ManageSearchOutlined";
import OndemandVideoOutlined from "@mui/icons-material/OndemandVideoOutlined";
import PolicyOutlined from "@mui/icons-material/PolicyOutlined";
import ReceiptLongOutlined from "@mui/icons-material/ReceiptLongOutlined";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemButton from "@mui/material/ListItemButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import ListItemText from "@mui/material/ListItemText";
import Toolbar from "@mui/material/Toolbar";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useLocation } from "react-router-dom";
import { FEEDBACK_URL, HELP_CENTER_URL, RAIL_WIDTH, SUPPORT_EMAIL, TUTORIALS_URL } from "@/config/constants";
import { paths } from "@/config/paths";
import { Logo } from "@/components/ui/logo";

interface NavEntry {
  key: string;
  label: string;
  href: string;
  icon: ReactNode;
  /** Paths (besides `href`) that highlight this entry. */
  matches: (pathname: string) => boolean;
}

const startsWith = (pathname: string, prefix: string) =>
  pathname === prefix || pathname.startsWith(`${prefix}/`);

/**
 * The navigation's entries: exactly the four the requirements name (docs/requirements.md#screens-and-navigation);
 * our other screens (Backup Activity, Restore Drills) are reached from inside the screens. Highlighting: '/' and
 * '/resources' both mean resources; otherwise prefix match.
 */
export function useNavEntries(): NavEntry[] {
  const { t } = useTranslation();
  return [
    {
      key: "resources",
      label: t("nav.resources"),
      href: paths.app.resources.getHref(),
      icon: <Inventory2Outlined />,
      matches: (pathname) =>
        pathname === paths.app.home.path || startsWith(pathname, paths.app.resources.path),
    },
    {
      key: "policies",
      label: t("nav.policies"),
      href: paths.app.policies.getHref(),
      icon: <PolicyOutlined />,
      matches: (pathname) => startsWith(pathname, paths.app.policies.path),
    },
    {
      key: "search",
      label: t("nav.search"),
      href: paths.app.search.getHref(),
      icon: <ManageSearchOutlined />,
      matches: (pathname) => startsWith(pathname, "/search"),
    },
    {
      key: "audit-logs",
      label: t("nav.auditLogs"),
      href: paths.app.auditLogs.getHref(),
      icon: <ReceiptLongOutlined />,
      matches: (pathname) => startsWith(pathname, paths.app.auditLogs.path),
    },
  ];
}

export function SideNav({ onNavigate, footer }: { onNavigate?: () => void; footer?: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const entries = useNavEntries();
  const external = [
    {
      key: "support",
      label: t("nav.contactSupport"),
      href: `mailto:${SUPPORT_EMAIL}`,
      icon: <ContactSupportOutlined />,
    },
    { key: "feedback", label: t("nav.feedback"), href: FEEDBACK_URL, icon: <FeedbackOutlined /> },
    { key: "help", label: t("nav.helpCenter"), href: HELP_CENTER_URL, icon: <HelpCenterOutlined /> },
    { key: "tutorials", label: t("nav.tutorials"), href: TUTORIALS_URL, icon: <OndemandVideoOutlined /> },
  ];
  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%" }}>
      <Toolbar sx={{ px: 2.5 }}>
        <Logo />
      </Toolbar>
      <Divider />
      <Box component="nav" aria-label={t("nav.label")} sx={{ flexGrow: 1, overflowY: "auto", p: 1.5 }}>
        <List disablePadding>
          {entries.map((entry) => {
            const selected = entry.matches(pathname);
            return (
              <ListItem key={entry.key} disablePadding sx={{ mb: 0.5 }}>
                <ListItemButton
                  component={RouterLink}
                  to={entry.href}
                  selected={selected}
                  aria-current={selected ? "page" : undefined}
                  onClick={onNavigate}
                >
                  <ListItemIcon>{entry.icon}</ListItemIcon>
                  <ListItemText primary={entry.label} />
                </ListItemButton>
              </ListItem>
            );
          })}
        </List>
      </Box>
      <Divider />
      <List dense sx={{ p: 1.5 }}>
        {external.map((link) => (
          <ListItem key={link.key} disablePadding>
            <ListItemButton
              component="a"
              href={link.href}
              {...(link.href.startsWith("mailto:") ? {} : { target: "_blank", rel: "noopener noreferrer" })}
            >
              <ListItemIcon>{link.icon}</ListItemIcon>
              <ListItemText primary={link.label} />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
      {footer}
    </Box>
  );
}

/**
 * The icon rail shown below the `lg` breakpoint while the drawer is closed (docs/requirements.md#constants-and-limits: 56 wide): the
 * four entries as icons with their labels as tooltips, and the button that opens the drawer.
 */
export function NavRail({ menuButton }: { menuButton: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const entries = useNavEntries();
  return (
    <Box
      data-testid="nav-rail"
      sx={{
        width: RAIL_WIDTH,
        flexShrink: 0,
        display: { xs: "none", sm: "flex" },
        flexDirection: "column",
        alignItems: "center",
        borderRight: 1,
        borderColor: "divider",
        bgcolor: "background.paper",
        position: "sticky",
        top: 0,
        height: "100vh",
      }}
    >
      <Toolbar disableGutters sx={{ justifyContent: "center", width: "100%" }}>
        {menuButton}
      </Toolbar>
      <Divider flexItem />
      <Box component="nav" aria-label={t("nav.rail")} sx={{ pt: 1 }}>
        {entries.map((entry) => {
          const selected = entry.matches(pathname);
          return (
            // The native title is its tooltip: a link swapped for a tooltip's on hover could lose the click.
            <ListItemButton
              key={entry.key}
              component={RouterLink}
              to={entry.href}
              selected={selected}
              aria-current={selected ? "page" : undefined}
              aria-label={entry.label}
              title={entry.label}
              sx={{ width: 40, height: 40, my: 0.5, p: 0, justifyContent: "center", borderRadius: 1 }}
            >
              {entry.icon}
            </ListItemButton>
          );
        })}
      </Box>
    </Box>
  );
}
