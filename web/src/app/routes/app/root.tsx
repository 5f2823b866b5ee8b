import { AppShell } from "@/features/shell/components/app-shell";

export default function AppRoot() {
  return <AppShell />;
}
