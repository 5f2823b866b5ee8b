/**
 * Deterministic organisations from a seed: the `demo` profile `npm start` runs, and `bench`.
 */
import type { WorkspaceEmulator } from "../emulator";

export type ProfileName = "demo" | "bench";

export const DEMO_DOMAIN = "alpvault-demo.test";

export function generateOrganisation(
  emulator: WorkspaceEmulator,
  options: { profile: ProfileName; seed?: number },
): void {
  const domain = options.profile === "demo" ? DEMO_DOMAIN : "alpvault-bench.test";
  emulator.directory.addCustomer({ domain, installed: false });
  emulator.directory.addUser({
    email: `admin@${domain}`,
    givenName: "Ada",
    familyName: "Admin",
    isAdmin: true,
  });
  emulator.directory.addUser({ email: `user@${domain}`, givenName: "Ueli", familyName: "User" });
}
