/**
 * The configuration component tests run with, in place of `config/env.ts` (jest's `web` project maps
 * `@/config/env` here: `import.meta.env` exists only in Vite's bundles). It is the emulator build's
 * configuration (`web/.env.emulator`): calls go to `/v1` on the page's host, demo sign-in is offered.
 */
import type { Env } from "@/config/env";

export const env: Env = {
  useEmulators: true,
  firebase: {
    apiKey: "demo-key",
    projectId: "demo-alpvault",
    appId: "1:000000000000:web:0000000000000000000000",
    authDomain: "demo-alpvault.firebaseapp.com",
  },
  apiBaseUrl: "/v1",
  authEmulatorUrl: "http://127.0.0.1:9099",
  marketplaceUrl: "http://127.0.0.1:8090/marketplace/app/alpvault/104857600",
};
