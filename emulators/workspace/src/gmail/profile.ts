/**
 * Gmail v1 `users.getProfile`: the mailbox's address, counts and current history id.
 */
import { BASE, PROFILE, type GmailRoutes } from "./common";

export function registerProfileRoutes({ store, route }: GmailRoutes): void {
  route("GET", `${BASE}/profile`, "gmail.users.getProfile", PROFILE, (_context, user) => {
    const profile = store.profile(user.id);
    return {
      emailAddress: user.primaryEmail,
      messagesTotal: profile.messagesTotal,
      threadsTotal: profile.threadsTotal,
      historyId: String(profile.historyId),
    };
  });
}
