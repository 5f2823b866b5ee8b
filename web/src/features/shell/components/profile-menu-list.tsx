import Box from "@mui/material/Box";
import Divider from "@mui/material/Divider";
import MenuItem from "@mui/material/MenuItem";
import MenuList from "@mui/material/MenuList";
import Popover from "@mui/material/Popover";
import Typography from "@mui/material/Typography";
import type { User } from "firebase/auth";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { paths } from "@/config/paths";
import { useSession } from "@/lib/session";
import { ProfileAvatar } from "./profile-avatar";

/**
 * The profile menu's content, open at `anchor` (see `ProfileMenu`): who is signed in and on which plan,
 * above the menu itself. The summary sits beside the menu, not in it: a menu holds only its items.
 */
export default function ProfileMenuList({
  user,
  anchor,
  onClose,
  onLogout,
}: {
  user: User;
  anchor: HTMLElement | null;
  onClose: () => void;
  onLogout: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { currentPlan } = useSession();
  const go = (href: string) => () => {
    onClose();
    // navigate() settles once the route has loaded and never rejects (a route's errors show in its error element).
    void navigate(href);
  };
  return (
    <Popover
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
      transformOrigin={{ vertical: "top", horizontal: "right" }}
      slotProps={{ paper: { "data-testid": "profile-menu" } as object }}
    >
      <Box
        sx={{ display: "flex", gap: 1.5, alignItems: "center", px: 2, py: 1.5 }}
        data-testid="profile-summary"
      >
        <ProfileAvatar user={user} size={40} />
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
      <MenuList autoFocusItem aria-label={t("profileMenu.open")}>
        <MenuItem onClick={go(paths.app.profile.getHref())}>{t("profileMenu.myProfile")}</MenuItem>
        <MenuItem onClick={go(paths.app.secrets.getHref())}>{t("profileMenu.secrets")}</MenuItem>
        <MenuItem onClick={go(paths.app.subscription.getHref())}>{t("profileMenu.mySubscription")}</MenuItem>
        <Divider />
        <MenuItem
          onClick={() => {
            onClose();
            onLogout();
          }}
        >
          {t("profileMenu.logOut")}
        </MenuItem>
      </MenuList>
    </Popover>
  );
}
