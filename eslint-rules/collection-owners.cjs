/**
 * Every Firestore collection has one owning module, and only that module's repositories name it. In
 * functions/src (outside lib/ and tests), `.collection("name")` and `.collectionGroup("name")` with a
 * collection of another module are errors: that module's service answers for its data.
 *
 * `COLLECTION_OWNERS` maps each collection to its module (the first folder under functions/src). The
 * `meta` documents are not a collection of one module (each module keeps its own document there:
 * `meta/gc`, `meta/verify`, `meta/usage`...), so `meta` has no owner, and neither has `items`, the name of
 * both the catalog's items (backups/, under resources/{resourceId}) and a drill run's items (drills/). `CROSS_MODULE_COLLECTIONS` lists the
 * repositories that still reach another module's collection ("file → collection", with the reason), a
 * ratchet like import-boundaries' list: it only shrinks, and an entry no longer needed is an error too.
 * The rule's option `crossModuleCollections` replaces it (the rule's tests use it).
 */
const path = require("node:path");

const FUNCTIONS_SRC = path.join(path.resolve(__dirname, ".."), "functions", "src");

const COLLECTION_OWNERS = {
  alerts: "resources",
  auditChain: "audit",
  auditLogs: "audit",
  backupRuns: "backups",
  backupState: "backups",
  checkpoint: "export",
  chunkRefs: "backups",
  dataKeys: "backups",
  domains: "organizations",
  drillRuns: "drills",
  exports: "export",
  folders: "backups",
  googleQuotaDays: "system",
  ledger: "recovery",
  organizations: "organizations",
  paymentCheckouts: "billing",
  paymentEvents: "billing",
  payments: "billing",
  policies: "policies",
  problems: "export",
  recoveries: "recovery",
  recoveryLocks: "recovery",
  resources: "resources",
  secrets: "secrets",
  system: "system",
  verifyRuns: "backups",
  versions: "backups",
};

const CROSS_MODULE_COLLECTIONS = new Map([
  ["backups/catalog/folders-repo.ts → resources", "the catalog lives under resources/{resourceId}"],
  ["backups/catalog/labels-repo.ts → resources", "the catalog lives under resources/{resourceId}"],
  ["backups/catalog/readers-repo.ts → resources", "the catalog lives under resources/{resourceId}"],
  ["backups/catalog/repo.ts → resources", "the catalog lives under resources/{resourceId}"],
  ["backups/repo.ts → resources", "writes a resource's backup status and next run with its run"],
  ["backups/retention/repo.ts → resources", "walks the catalog under each resource"],
  ["backups/verify/repo.ts → resources", "records a resource's integrity on its document"],
  ["policies/repo.ts → backupRuns", "queues the assigned resources' runs in the assignment transaction"],
  ["policies/repo.ts → resources", "sets the resources' policy in the assignment transaction"],
  ["search/repo.ts → resources", "searches the catalog's items under each resource"],
]);

/** The file's path inside functions/src as its parts, or undefined outside it, in lib/ or in a test. */
function checkedParts(file) {
  const relative = path.relative(FUNCTIONS_SRC, file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  const parts = relative.split(path.sep);
  if (parts.length < 2 || parts[0] === "lib" || /\.test\.tsx?$/.test(parts[parts.length - 1]))
    return undefined;
  return parts;
}

module.exports = {
  meta: {
    type: "problem",
    docs: { description: "a Firestore collection is named only by its owning module" },
    schema: [
      {
        type: "object",
        properties: { crossModuleCollections: { type: "array", items: { type: "string" } } },
        additionalProperties: false,
      },
    ],
    messages: {
      owner:
        "The '{{collection}}' collection belongs to {{owner}}/: reach its data through {{owner}}/'s service.",
      staleException:
        "'{{pair}}' is listed in CROSS_MODULE_COLLECTIONS but the file no longer names the collection; remove it from the list.",
    },
  },
  create(context) {
    const parts = checkedParts(context.filename);
    if (!parts) return {};
    const option = context.options[0]?.crossModuleCollections;
    const allowed = option ? new Set(option) : new Set(CROSS_MODULE_COLLECTIONS.keys());
    const file = parts.join("/");
    const listed = new Set([...allowed].filter((pair) => pair.startsWith(`${file} → `)));
    return {
      CallExpression(node) {
        const { callee } = node;
        if (callee.type !== "MemberExpression" || callee.computed || callee.property.type !== "Identifier")
          return;
        if (callee.property.name !== "collection" && callee.property.name !== "collectionGroup") return;
        const [first] = node.arguments;
        if (!first || first.type !== "Literal" || typeof first.value !== "string") return;
        const collection = first.value.split("/")[0];
        const owner = COLLECTION_OWNERS[collection];
        if (!owner || owner === parts[0]) return;
        const pair = `${file} → ${collection}`;
        listed.delete(pair);
        if (!allowed.has(pair)) {
          context.report({ node: first, messageId: "owner", data: { collection, owner } });
        }
      },
      "Program:exit"(node) {
        for (const pair of listed) context.report({ node, messageId: "staleException", data: { pair } });
      },
    };
  },
};
