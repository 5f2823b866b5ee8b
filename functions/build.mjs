// Bundles functions/src into lib/index.js. Shared code from ../contracts is inlined, so functions/ deploys
// on its own with `firebase deploy`; packages listed in package.json dependencies stay external and are
// installed by Cloud Functions at deploy time.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(readFileSync(resolve(here, "package.json"), "utf8"));

await build({
  entryPoints: [resolve(here, "src/index.ts")],
  outfile: resolve(here, "lib/index.js"),
  bundle: true,
  platform: "node",
  target: "node20",
  format: "cjs",
  sourcemap: true,
  external: Object.keys(pkg.dependencies ?? {}),
  alias: { "@alpvault/contracts": resolve(here, "../contracts/src") },
  logLevel: "warning",
});
