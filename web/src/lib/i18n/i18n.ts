import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import type { Locale } from "@/config/constants";
import en from "./en.json";
import fr from "./fr.json";

/** English is complete; French is a stub and falls back to English key by key (docs/requirements.md#scope). */
export function initI18n(locale: Locale): typeof i18n {
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources: { en: { translation: en }, fr: { translation: fr } },
      lng: locale,
      fallbackLng: "en",
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  return i18n;
}
