/** The product version (spec §9: app version 1.1.1). */
export const APP_VERSION = "1.1.1";
