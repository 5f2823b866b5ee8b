import IconButton from "@mui/material/IconButton";
import type { User } from "firebase/auth";
import { lazy, useState } from "react";
import { useTranslation } from "react-i18next";
import { WhenWanted } from "@/components/ui/when-wanted";
import { initials } from "@/lib/format";
import { ProfileAvatar } from "./profile-avatar";

/** The menu's content loads when it is first opened. */
const ProfileMenuList = lazy(() => import("./profile-menu-list"));

/** Header profile menu (docs/requirements.md#screens-and-navigation): picture, name and email; My profile, Secrets, My Subscription, Log Out. */
export function ProfileMenu({ user, onLogout }: { user: User; onLogout: () => void }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Initials shown instead of a picture are visible text: the button's name says them too, so that a
  // voice-control user can name the button by what they see.
  const shown = user.photoURL ? "" : initials(user.displayName ?? user.email);
  return (
    <>
      <IconButton
        aria-label={shown ? t("profileMenu.openWithInitials", { initials: shown }) : t("profileMenu.open")}
        title={t("profileMenu.open")}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        <ProfileAvatar user={user} size={32} />
      </IconButton>
      <WhenWanted wanted={anchor !== null}>
        <ProfileMenuList user={user} anchor={anchor} onClose={() => setAnchor(null)} onLogout={onLogout} />
      </WhenWanted>
    </>
  );
}
