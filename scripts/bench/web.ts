/**
 * The web console's weight and speed (`npm run bench -- web`), measured in a process of its own
 * (`web-child.ts` → `web-console.ts`): the JavaScript the login and the resources screen load, and the time
 * until each is ready, in Chromium against a throw-away local stack.
 */
import { sectionedBench, type Section } from "./sections";
import { figureSpec } from "./types";
import type { WebSectionName } from "./web-child";

const KB = { unit: "KB", digits: 1 };

const SECTIONS: Section<WebSectionName>[] = [
  {
    name: "console",
    figures: [
      figureSpec("web-login-js", "JavaScript until the login button works (gzip)", "<=", 200, KB),
      figureSpec("web-resources-js", "JavaScript until the resources table shows (gzip)", "<=", 300, KB),
      figureSpec("web-login-ms", "Time to the login button (median)", "<=", 1_000, { unit: "ms" }),
      figureSpec("web-resources-ms", "Time to the resources table (median)", "<=", 3_000, { unit: "ms" }),
    ],
  },
];

export const webBench = sectionedBench(
  "web",
  "Web console: JavaScript loaded and time to the login and the resources screen (local stack, Chromium)",
  "web-child.ts",
  SECTIONS,
);
