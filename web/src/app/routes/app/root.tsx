import { AppShell } from "@/features/shell/components/app-shell";
import { SystemStatusCard } from "@/features/system-status/components/system-status-card";

/** The signed-in shell; the API's health is a developer's figure, shown in the debug block only. */
export default function AppRoot() {
  return <AppShell debug={<SystemStatusCard />} />;
}
