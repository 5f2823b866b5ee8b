/** Product-wide constants of the web app. */

/** Key under which the web app keeps its browser storage entries (docs/requirements.md#data-the-console-shows). */
export const STORAGE_NAMESPACE = "alpvault";
/** The group of the local preferences inside the storage namespace (docs/requirements.md#data-the-console-shows). */
export const PREFERENCES_GROUP = "shared-settings";

/** The one test account that sees the debug block with token copy buttons (docs/requirements.md#screens-and-navigation, #who-may-do-what). */
export const DEBUG_ACCOUNT_EMAIL = "qa-debug@alpine-demo.example";

export const SUPPORT_EMAIL = "support@alpvault.com";
export const FEEDBACK_URL = "https://alpvault.com/feedback";
export const HELP_CENTER_URL = "https://help.alpvault.com";
export const TUTORIALS_URL = "https://help.alpvault.com/tutorials";

/** Navigation drawer width (docs/requirements.md#constants-and-limits). */
export const DRAWER_WIDTH = 300;
/** Width of the icon rail shown below the `lg` breakpoint while the drawer is closed (docs/requirements.md#constants-and-limits). */
export const RAIL_WIDTH = 56;
/** Width of the screen edge from which a touch swipe opens the temporary drawer (docs/requirements.md#constants-and-limits). */
export const SWIPE_EDGE_WIDTH = 25;

export const SUPPORTED_LOCALES = ["en", "fr"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];

export const THEME_MODES = ["light", "dark"] as const;
export type ThemeMode = (typeof THEME_MODES)[number];
