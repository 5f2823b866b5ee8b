import { lazy, useState } from "react";
import { WhenWanted } from "@/components/ui/when-wanted";
import { STORAGE_NAMESPACE } from "@/config/constants";

/** The dialog loads when it is first shown (once per browser at most). */
const WelcomeDialog = lazy(() => import("./welcome-dialog"));

/** Browser storage entry remembering that the welcome modal was dismissed. */
export const WELCOME_DISMISSED_KEY = `${STORAGE_NAMESPACE}:resourcesWelcomeDismissed`;

function wasDismissed(): boolean {
  try {
    return window.localStorage.getItem(WELCOME_DISMISSED_KEY) === "true";
  } catch (error) {
    console.warn("The welcome modal's dismissal could not be read", error);
    return false;
  }
}

function rememberDismissal(): void {
  try {
    window.localStorage.setItem(WELCOME_DISMISSED_KEY, "true");
  } catch (error) {
    console.warn("The welcome modal's dismissal could not be stored", error);
  }
}

/**
 * The resources screen's welcome modal (docs/requirements.md#screens-and-navigation): shown on the first visit to an organisation's resources
 * (once `ready`: the organisation's resources have loaded) until dismissed; the dismissal is remembered in
 * browser storage.
 */
export function WelcomeModal({ ready }: { ready: boolean }) {
  const [dismissed, setDismissed] = useState(wasDismissed);
  const open = ready && !dismissed;
  const close = () => {
    rememberDismissal();
    setDismissed(true);
  };
  return (
    <WhenWanted wanted={open}>
      <WelcomeDialog open={open} close={close} />
    </WhenWanted>
  );
}
