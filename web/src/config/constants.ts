/** Product-wide constants of the web app. */

/** Key under which the web app keeps its browser storage entries (spec §3). */
export const STORAGE_NAMESPACE = "alpvault";
/** The group of the local preferences inside the storage namespace (spec §3). */
export const PREFERENCES_GROUP = "shared-settings";

/** The one test account that sees the debug block with token copy buttons (spec §2, §6). */
export const DEBUG_ACCOUNT_EMAIL = "qa-debug@alpine-demo.example";

export const SUPPORT_EMAIL = "support@alpvault.com";
export const FEEDBACK_URL = "https://alpvault.com/feedback";
export const HELP_CENTER_URL = "https://help.alpvault.com";
export const TUTORIALS_URL = "https://help.alpvault.com/tutorials";

/** Navigation drawer width (spec §9). */
export const DRAWER_WIDTH = 300;
/** Width of the icon rail shown below the `lg` breakpoint while the drawer is closed (spec §9). */
export const RAIL_WIDTH = 56;
/** Width of the screen edge from which a touch swipe opens the temporary drawer (spec §9). */
export const SWIPE_EDGE_WIDTH = 25;

export const SUPPORTED_LOCALES = ["en", "fr"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];

export const THEME_MODES = ["light", "dark"] as const;
export type ThemeMode = (typeof THEME_MODES)[number];
