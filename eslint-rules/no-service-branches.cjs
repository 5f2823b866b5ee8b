/**
 * Every Workspace service is a plug-in: the product asks the service registry what a service does, and only
 * the service's own folder knows its name. A comparison with a service's name or its items' kind — `x ===
 * "gmail"`, `kind !== "drive-file"`, `case "calendar":` — outside the service folders and the registry is a
 * service branch: a third service would need a branch there too. The rule reports them.
 *
 * The product has branches from before the registry. They are counted per file in
 * `service-branches-baseline.json`, which may only shrink: a file with more branches than its baseline
 * (a new file: none) is reported at each of them, and a file with fewer is reported once so the baseline
 * is lowered with the change that removed them. The baseline is empty: every branch is gone, and none may
 * come back.
 *
 * Exempt: the service folders (`functions/src/engine/<service>/`, `web/src/features/<service>/` once they
 * exist), the registries (`SERVICE_REGISTRIES` below) and tests (`*.test.ts(x)`, `testing/` folders).
 * eslint.config.mjs applies the rule to functions/src, web/src and contracts/src.
 */
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
/** Service names and their items' catalog kinds. */
const SERVICE_WORDS = new Set([
  "gmail",
  "drive",
  "calendar",
  "contacts",
  "gmail-message",
  "drive-file",
  "calendar-entry",
  "contacts-entry",
  "contact",
]);
const SERVICES = ["gmail", "drive", "calendar", "contacts"];
/** Folders of one service each: they may name it (and compare with it). */
const SERVICE_FOLDERS = SERVICES.flatMap((service) => [
  path.join(ROOT, "functions", "src", "engine", service) + path.sep,
  path.join(ROOT, "web", "src", "features", service) + path.sep,
]);
/** The registries, where each service's parts are put together. */
const SERVICE_REGISTRIES = [
  path.join(ROOT, "contracts", "src", "services.ts"),
  path.join(ROOT, "functions", "src", "engine", "services.ts"),
];

let baseline;
/** The baseline's counts by file (relative to the repository, forward slashes). */
function baselineCounts() {
  baseline ??= require("./service-branches-baseline.json");
  return baseline;
}

function exempt(file) {
  return (
    /\.test\.tsx?$/.test(file) ||
    file.split(path.sep).includes("testing") ||
    SERVICE_FOLDERS.some((folder) => file.startsWith(folder)) ||
    SERVICE_REGISTRIES.includes(file)
  );
}

const isServiceWord = (node) =>
  node && node.type === "Literal" && typeof node.value === "string" && SERVICE_WORDS.has(node.value);

module.exports = {
  meta: {
    type: "problem",
    docs: { description: "services are plug-ins: no comparison with a service's name outside its folder" },
    // `baseline` replaces service-branches-baseline.json (the rule's tests use it).
    schema: [
      {
        type: "object",
        properties: { baseline: { type: "object", additionalProperties: { type: "integer" } } },
        additionalProperties: false,
      },
    ],
    messages: {
      branch:
        'A comparison with the service "{{word}}" outside its folder and the registry ({{count}} in this file, {{allowed}} allowed by eslint-rules/service-branches-baseline.json): ask the service registry instead.',
      lower:
        "This file has {{count}} service branches, fewer than the {{allowed}} eslint-rules/service-branches-baseline.json allows: lower its count there (the baseline only shrinks).",
    },
  },
  create(context) {
    const file = context.filename;
    if (exempt(file)) return {};
    const relative = path.relative(ROOT, file).split(path.sep).join("/");
    const branches = [];
    return {
      BinaryExpression(node) {
        if (!["===", "!==", "==", "!="].includes(node.operator)) return;
        const literal = isServiceWord(node.left) ? node.left : isServiceWord(node.right) ? node.right : null;
        if (literal) branches.push({ node, word: literal.value });
      },
      SwitchCase(node) {
        if (isServiceWord(node.test)) branches.push({ node, word: node.test.value });
      },
      "Program:exit"(program) {
        const counts = context.options[0]?.baseline ?? baselineCounts();
        const allowed = counts[relative] ?? 0;
        const count = branches.length;
        if (count > allowed) {
          for (const { node, word } of branches) {
            context.report({ node, messageId: "branch", data: { word, count, allowed } });
          }
        } else if (count < allowed) {
          context.report({ node: program, messageId: "lower", data: { count, allowed } });
        }
      },
    };
  },
};
