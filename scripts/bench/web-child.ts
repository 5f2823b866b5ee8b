/**
 * The web bench's section in a process of its own, forked by `web.ts` (with the tsconfig the product's and
 * the browser tests' imports need): `web-child.ts console` measures the console and sends its figures.
 */
import { serveSection } from "./sections";

export type WebSectionName = "console";

serveSection({
  console: async () => ({ measured: await (await import("./web-console")).measureConsole() }),
} satisfies Record<WebSectionName, unknown>);
