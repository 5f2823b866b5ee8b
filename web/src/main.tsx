import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

const container = document.getElementById("root");
if (!container) throw new Error("The page has no #root element");
const root = createRoot(container);

/**
 * The screens most visits open first, fetched beside the app module instead of after it: the router then
 * finds them loaded, and the page waits one round of requests less. A failure here is the router's to show.
 */
const FIRST_SCREENS: Record<string, () => Promise<unknown>> = {
  "/login": () => import("@/app/routes/auth/login"),
  "/": () => Promise.all([import("@/app/routes/app/root"), import("@/app/routes/app/resources")]),
  "/resources": () => Promise.all([import("@/app/routes/app/root"), import("@/app/routes/app/resources")]),
};
FIRST_SCREENS[window.location.pathname]?.().catch(() => undefined);

// The app module reads the validated configuration when it loads; a broken build shows what is missing.
import("@/app/app").then(
  ({ App }) =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  (error: unknown) => {
    console.error(error);
    root.render(
      <main style={{ fontFamily: "sans-serif", padding: 32 }}>
        <h1>Alpvault cannot start</h1>
        <pre style={{ whiteSpace: "pre-wrap" }}>{error instanceof Error ? error.message : String(error)}</pre>
      </main>,
    );
  },
);
