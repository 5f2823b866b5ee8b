import i18n from "i18next";
import { useTranslation } from "react-i18next";
import en from "./en.json";
import fr from "./fr.json";

/** Deep-merges the onboarding texts into the default namespace (English complete, French a stub). */
function addBundles(): void {
  i18n.addResourceBundle("en", "translation", en, true, false);
  i18n.addResourceBundle("fr", "translation", fr, true, false);
}

let registered = false;

function register(): void {
  if (registered) return;
  // The store exists once the app's i18n is initialised (the app provider does it before any screen renders).
  if (i18n.store) {
    registered = true;
    addBundles();
  }
}

/** `useTranslation()` with the onboarding texts registered. */
export function useOnboardingTranslation() {
  register();
  return useTranslation();
}
