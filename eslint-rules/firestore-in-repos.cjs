/**
 * Only repositories touch Firestore. In functions/src, a file other than a repository (`repo.ts`, or
 * `<what>-repo.ts` where a folder needs several: repos.cjs), lib/ (which creates the clients) or a test
 * (which arranges data) may neither import nor call the ways into the database (`organizationRef`, `tenantDb`, `regionDb`, `globalDb`) nor call Firestore's own reference and
 * query methods (`collection`, `collectionGroup`, `doc`, `runTransaction`, `batch`, `getAll`, ...).
 * Another module reaches the data through the owning module's repository (or its service).
 * (Importing `firebase-admin/firestore` itself is `import-boundaries`' check.)
 */
const path = require("node:path");
const { isRepo } = require("./repos.cjs");

const FUNCTIONS_SRC = path.join(path.resolve(__dirname, ".."), "functions", "src");
const ENTRIES = new Set(["organizationRef", "tenantDb", "regionDb", "globalDb"]);
const METHODS = new Set([
  "collection",
  "collectionGroup",
  "doc",
  "runTransaction",
  "batch",
  "getAll",
  "bulkWriter",
  "listCollections",
  "listDocuments",
  "recursiveDelete",
]);

/** Whether the rule applies to the file: functions/src, outside repos, lib/ and tests. */
function checked(file) {
  const relative = path.relative(FUNCTIONS_SRC, file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return false;
  const parts = relative.split(path.sep);
  const name = parts[parts.length - 1];
  return parts[0] !== "lib" && !isRepo(name) && !/\.test\.tsx?$/.test(name);
}

function calledName(callee) {
  if (callee.type === "Identifier") return callee.name;
  if (callee.type === "MemberExpression" && !callee.computed && callee.property.type === "Identifier") {
    return callee.property.name;
  }
  return undefined;
}

module.exports = {
  meta: {
    type: "problem",
    docs: { description: "only repositories (repo.ts, <what>-repo.ts) touch Firestore" },
    schema: [],
    messages: {
      firestore:
        "Only repositories (repo.ts, <what>-repo.ts) touch Firestore ('{{name}}'): move the read or write into the owning module's repository.",
    },
  },
  create(context) {
    if (!checked(context.filename)) return {};
    const report = (node, name) => context.report({ node, messageId: "firestore", data: { name } });
    return {
      ImportSpecifier(node) {
        const name = node.imported.type === "Identifier" ? node.imported.name : node.imported.value;
        if (ENTRIES.has(name) && node.importKind !== "type" && node.parent.importKind !== "type") {
          report(node, name);
        }
      },
      CallExpression(node) {
        const name = calledName(node.callee);
        if (!name) return;
        if (ENTRIES.has(name)) report(node, name);
        else if (METHODS.has(name) && node.callee.type === "MemberExpression") report(node, `.${name}()`);
      },
    };
  },
};
