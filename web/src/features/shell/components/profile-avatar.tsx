import Avatar from "@mui/material/Avatar";
import type { User } from "firebase/auth";
import { initials } from "@/lib/format";

/** The signed-in user's picture, or their initials. */
export function ProfileAvatar({ user, size }: { user: User; size: number }) {
  const name = user.displayName ?? user.email ?? "";
  return (
    <Avatar
      src={user.photoURL ?? undefined}
      alt={name}
      sx={{ width: size, height: size, fontSize: size / 2.4 }}
    >
      {initials(name)}
    </Avatar>
  );
}
