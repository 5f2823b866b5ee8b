import Avatar from "@mui/material/Avatar";
import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import IconButton from "@mui/material/IconButton";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { User } from "firebase/auth";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { paths } from "@/config/paths";
import { initials } from "@/lib/format";
import { useSession } from "@/lib/session";

/** Header profile menu (docs/requirements.md#screens-and-navigation): picture, name and email; My profile, Secrets, My Subscription, Log Out. */
export function ProfileMenu({ user, onLogout }: { user: User; onLogout: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const { currentPlan } = useSession();
  const name = user.displayName ?? user.email ?? "";
  const go = (href: string) => () => {
    setAnchor(null);
    navigate(href);
  };
  const avatar = (size: number) => (
    <Avatar
      src={user.photoURL ?? undefined}
      alt={name}
      sx={{ width: size, height: size, fontSize: size / 2.4 }}
    >
      {initials(name)}
    </Avatar>
  );
  return (
    <>
      <Tooltip title={t("profileMenu.open")}>
        <IconButton aria-label={t("profileMenu.open")} onClick={(event) => setAnchor(event.currentTarget)}>
          {avatar(32)}
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <Box
          sx={{ display: "flex", gap: 1.5, alignItems: "center", px: 2, py: 1.5 }}
          data-testid="profile-summary"
        >
          {avatar(40)}
          <Box>
            <Typography variant="subtitle2">{user.displayName}</Typography>
            <Typography variant="body2" color="text.secondary">
              {user.email}
            </Typography>
            <Typography variant="caption" color="text.secondary" data-testid="profile-plan">
              {t("profileMenu.plan", { name: currentPlan.name })} ·{" "}
              {currentPlan.maxUsers === null
                ? t("profileMenu.unlimitedUsers")
                : t("profileMenu.maxUsers", { count: currentPlan.maxUsers })}
            </Typography>
          </Box>
        </Box>
        <Divider />
        <MenuItem onClick={go(paths.app.profile.getHref())}>{t("profileMenu.myProfile")}</MenuItem>
        <MenuItem onClick={go(paths.app.secrets.getHref())}>{t("profileMenu.secrets")}</MenuItem>
        <MenuItem onClick={go(paths.app.subscription.getHref())}>{t("profileMenu.mySubscription")}</MenuItem>
        <Divider />
        <MenuItem
          onClick={() => {
            setAnchor(null);
            onLogout();
          }}
        >
          {t("profileMenu.logOut")}
        </MenuItem>
      </Menu>
    </>
  );
}
