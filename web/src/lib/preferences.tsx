import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import {
  PREFERENCES_GROUP,
  STORAGE_NAMESPACE,
  SUPPORTED_LOCALES,
  THEME_MODES,
  type Locale,
  type ThemeMode,
} from "@/config/constants";

/**
 * Local preferences (docs/requirements.md#data-the-console-shows): one JSON object in browser storage under the storage namespace and the
 * shared-settings group. A missing or null value is replaced by its default and the default is written
 * back; storage failures are logged only and the defaults are used.
 */
export interface Preferences {
  theme: ThemeMode;
  locale: Locale;
}

export const DEFAULT_PREFERENCES: Preferences = { theme: "light", locale: "en" };
export const PREFERENCES_STORAGE_KEY = `${STORAGE_NAMESPACE}:${PREFERENCES_GROUP}`;

function pick<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === "string" && (allowed as readonly string[]).includes(value)
    ? (value as T)
    : fallback;
}

/** `window.localStorage` itself throws where storage is disabled. */
function browserStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch (error) {
    console.warn("Browser storage is unavailable; local preferences use defaults", error);
    return null;
  }
}

function writePreferences(storage: Storage | null, preferences: object): void {
  try {
    storage?.setItem(PREFERENCES_STORAGE_KEY, JSON.stringify(preferences));
  } catch (error) {
    console.warn("Local preferences could not be saved", error);
  }
}

export function readPreferences(storage: Storage | null = browserStorage()): Preferences {
  let raw: string | null;
  try {
    raw = storage?.getItem(PREFERENCES_STORAGE_KEY) ?? null;
  } catch (error) {
    console.warn("Local preferences could not be read; using defaults", error);
    return { ...DEFAULT_PREFERENCES };
  }
  let stored: Record<string, unknown> = {};
  try {
    const parsed: unknown = raw === null ? null : JSON.parse(raw);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      stored = parsed as Record<string, unknown>;
    }
  } catch (error) {
    // An unreadable value is replaced by the defaults, like a missing one.
    console.warn("Local preferences were not valid JSON; replacing them with defaults", error);
  }
  const preferences: Preferences = {
    theme: pick(stored.theme, THEME_MODES, DEFAULT_PREFERENCES.theme),
    locale: pick(stored.locale, SUPPORTED_LOCALES, DEFAULT_PREFERENCES.locale),
  };
  if (stored.theme !== preferences.theme || stored.locale !== preferences.locale) {
    writePreferences(storage, { ...stored, ...preferences });
  }
  return preferences;
}

interface PreferencesContextValue extends Preferences {
  setTheme: (theme: ThemeMode) => void;
  setLocale: (locale: Locale) => void;
}

const PreferencesContext = createContext<PreferencesContextValue | null>(null);

export function PreferencesProvider({ children }: { children: ReactNode }) {
  const [preferences, setPreferences] = useState<Preferences>(() => readPreferences());

  const update = useCallback((change: Partial<Preferences>) => {
    setPreferences((current) => {
      const next = { ...current, ...change };
      writePreferences(browserStorage(), next);
      return next;
    });
  }, []);

  const value = useMemo<PreferencesContextValue>(
    () => ({
      ...preferences,
      setTheme: (theme) => update({ theme }),
      setLocale: (locale) => update({ locale }),
    }),
    [preferences, update],
  );
  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}

export function usePreferences(): PreferencesContextValue {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error("usePreferences must be used inside PreferencesProvider");
  return value;
}
