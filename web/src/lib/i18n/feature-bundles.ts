import i18n from "i18next";

type Bundle = Record<string, unknown>;

/**
 * Deep-merges a feature's strings into the default namespace. French is a stub and falls back to English
 * key by key (docs/requirements.md#scope). Registering twice is harmless; a registration before i18next is initialised waits
 * for it.
 */
export function registerFeatureTranslations(en: Bundle, fr: Bundle): void {
  const add = () => {
    i18n.addResourceBundle("en", "translation", en, true, false);
    i18n.addResourceBundle("fr", "translation", fr, true, false);
  };
  // The store exists as soon as init() was called, before the "initialized" event.
  if ((i18n.store as typeof i18n.store | undefined) !== undefined) add();
  else i18n.on("initialized", add);
}
