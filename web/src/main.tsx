import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

const container = document.getElementById("root");
if (!container) throw new Error("The page has no #root element");
const root = createRoot(container);

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
