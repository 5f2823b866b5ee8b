import i18n from "i18next";
import en from "./en.json";
import fr from "./fr.json";

function addBundles(): void {
  i18n.addResourceBundle("en", "translation", en, true, false);
  i18n.addResourceBundle("fr", "translation", fr, true, false);
}

/**
 * The resources screen's strings, deep-merged into the default namespace (`resources.*`). French is a stub
 * and falls back to English key by key (spec §1). Imported by the screen's modules; registering twice is
 * harmless, and a registration before i18next is initialised waits for it.
 */
export function registerResourcesTranslations(): void {
  // The store exists as soon as init() was called, before the "initialized" event.
  if ((i18n.store as typeof i18n.store | undefined) !== undefined) addBundles();
  else i18n.on("initialized", addBundles);
}

registerResourcesTranslations();
