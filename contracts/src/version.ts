/** The product version (docs/requirements.md#constants-and-limits: app version 1.1.1). */
export const APP_VERSION = "1.1.1";
