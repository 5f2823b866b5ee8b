/**
 * One-way import boundaries (CONVENTIONS.md), checked on every import after resolving it to a file:
 * - packages: web/ and functions/ may use contracts/ and themselves only; contracts/ and emulators/ are
 *   self-contained; tests/ and scripts/ may use anything.
 * - web/src: shared (components, lib, config, testing) ← features ← app; a feature never imports another.
 * - functions/src: routes.ts never reaches a repository (`repo.ts`, `<what>-repo.ts`: repos.cjs) directly
 *   (routes → service → repo), and only repositories and lib/ touch `firebase-admin/firestore`.
 * - functions/src: only the HTTP layer imports http/ (http/ itself, routes.ts and their tests, and the
 *   composition at the top: index.ts and api.ts, which builds the API as deployed);
 *   a domain module (a service, repo, worker, task, lib/…) never does: its errors come from lib/errors.ts.
 * - functions/src/http is a transport kit: it imports only http/, lib/, the top-level logs.ts and config.ts,
 *   contracts/ and packages, never a product area (the routes are composed in api.ts).
 * - emulators: each one (and the shared kit) is a package whose only public entry is `src/index.ts`; from
 *   outside an emulator (tests, scripts, another emulator) nothing else under it may be imported.
 * - functions/src/engine is a library (sources and restorers, runner, format, blob store, Google caller):
 *   it imports only engine/, lib/, contracts/ and packages, never a domain module, logs or config.
 * - functions/src: a module (the first folder: backups/, policies/, …) imports only its own repositories;
 *   another module's data is reached through that module's service. `CROSS_MODULE_REPO_IMPORTS` lists the
 *   imports that still do (a ratchet: it only shrinks, and an entry no longer needed is an error too);
 *   the rule's option `crossModuleRepoImports` replaces it (the rule's tests use it).
 *   Tests may arrange data through any repo.
 */
const path = require("node:path");
const { isRepo } = require("./repos.cjs");

const ROOT = path.resolve(__dirname, "..");
const ALIASES = [
  ["@/", path.join(ROOT, "web", "src") + path.sep],
  ["@alpvault/contracts/", path.join(ROOT, "contracts", "src") + path.sep],
];
const PACKAGE_DEPS = {
  web: ["web", "contracts"],
  functions: ["functions", "contracts"],
  contracts: ["contracts"],
  emulators: ["emulators"],
};
const FUNCTIONS_SRC = path.join(ROOT, "functions", "src");

/**
 * The imports of another module's repo still to be replaced by a call to that module's service, as
 * "importing file → imported repo" (inside functions/src), each with what it uses the repo for.
 */
const CROSS_MODULE_REPO_IMPORTS = new Map([]);
const ENGINE_DEPS = new Set(["engine", "lib"]);
/** What http/ may import inside functions/src: its own kit, lib/, and the top-level logs and config. */
const HTTP_DEPS = new Set(["http", "lib", "logs", "logs.ts", "config", "config.ts"]);
const HTTP_LAYER_FILES = new Set(["routes.ts", "routes.test.ts"]);
const WEB_SHARED = new Set(["components", "lib", "config", "testing", "assets", "types"]);

function packageOf(file) {
  const [top, second] = path.relative(ROOT, file).split(path.sep);
  if (top === "emulators" && second) return "emulators";
  return top;
}

/** web/src layer: 0 shared, 1 feature, 2 app (main.tsx and app/). */
function webLayer(file) {
  const parts = path.relative(path.join(ROOT, "web", "src"), file).split(path.sep);
  if (parts[0] === "features") return { rank: 1, feature: parts[1] };
  if (parts.length === 1 || parts[0] === "app") return { rank: 2 };
  return { rank: WEB_SHARED.has(parts[0]) ? 0 : 2 };
}

/** The file's path inside functions/src as its parts, or undefined for a file elsewhere. */
function functionsSrcParts(file) {
  const relative = path.relative(FUNCTIONS_SRC, file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep);
}

/** Whether a functions/src file belongs to the HTTP layer, the only one that may import http/. */
function inHttpLayer(parts) {
  if (parts[0] === "http") return true;
  if (parts.length === 1 && ["index.ts", "api.ts", "api.test.ts"].includes(parts[0])) return true;
  return HTTP_LAYER_FILES.has(parts[parts.length - 1]);
}

/** The emulator folder (`workspace`, `kit`...) a file lies in, if any. */
function emulatorOf(file) {
  const [top, second] = path.relative(ROOT, file).split(path.sep);
  return top === "emulators" && second ? second : undefined;
}

const EMULATOR_PACKAGE = /^@alpvault\/[\w-]+-emulator(\/.*)?$/;

/** An import of an emulator from outside it must name its public entry (the folder, `src` or `src/index`). */
function deepEmulatorImport(fromFile, source, target) {
  if (!target) {
    const deep = EMULATOR_PACKAGE.exec(source);
    return Boolean(deep && deep[1] && !/^\/src(\/index(\.ts)?)?$/.test(deep[1]));
  }
  const emulator = emulatorOf(target);
  if (!emulator || emulator === emulatorOf(fromFile)) return false;
  const inside = path
    .relative(path.join(ROOT, "emulators", emulator), target)
    .split(path.sep)
    .join("/");
  return !["", "src", "src/index", "src/index.ts"].includes(inside);
}

function resolveImport(source, fromFile) {
  for (const [prefix, target] of ALIASES) {
    if (source.startsWith(prefix)) return path.join(target, source.slice(prefix.length));
  }
  if (source.startsWith(".")) return path.resolve(path.dirname(fromFile), source);
  return undefined; // a package
}

/** `listed`: the "file → repo" pairs allowed to cross (the rule's option, else CROSS_MODULE_REPO_IMPORTS). */
function violation(fromFile, source, listed = CROSS_MODULE_REPO_IMPORTS) {
  const fromPackage = packageOf(fromFile);
  const target = resolveImport(source, fromFile);
  if (deepEmulatorImport(fromFile, source, target)) {
    return "an emulator is imported only through its public entry (emulators/<name>/src/index)";
  }
  if (!target) {
    const inFunctions = fromPackage === "functions" && fromFile.includes(`${path.sep}src${path.sep}`);
    const isRepoOrLib =
      isRepo(fromFile) || /[/\\]lib[/\\][^/\\]+$/.test(fromFile) || fromFile.endsWith(".test.ts");
    if (inFunctions && source === "firebase-admin/firestore" && !isRepoOrLib) {
      return "only repositories (and lib/) access Firestore";
    }
    return undefined;
  }
  const toPackage = packageOf(target);
  const allowed = PACKAGE_DEPS[fromPackage];
  if (allowed && !allowed.includes(toPackage)) return `${fromPackage}/ may not import from ${toPackage}/`;

  if (fromPackage === "web" && toPackage === "web") {
    const from = webLayer(fromFile);
    const to = webLayer(target);
    if (to.rank > from.rank) return "web imports flow one way: shared ← features ← app";
    if (from.rank === 1 && to.rank === 1 && from.feature !== to.feature) {
      return "features do not import each other; compose them in app/";
    }
  }
  if (fromPackage === "functions" && path.basename(fromFile) === "routes.ts" && isRepo(target)) {
    return "routes call services, never repos";
  }
  const fromParts = functionsSrcParts(fromFile);
  const targetParts = functionsSrcParts(target);
  if (fromParts && targetParts?.[0] === "http" && !inHttpLayer(fromParts)) {
    return "domain modules never import http/ (only http/, routes.ts, index.ts and api.ts do)";
  }
  if (fromParts?.[0] === "http" && targetParts && !HTTP_DEPS.has(targetParts[0])) {
    return "http/ is a transport kit: it imports only http/, lib/, logs.ts and config.ts (routes are composed in api.ts)";
  }
  if (fromParts?.[0] === "engine" && targetParts && !ENGINE_DEPS.has(targetParts[0])) {
    return "the engine imports only engine/, lib/ and contracts/";
  }
  const pair = crossModuleRepoImport(fromParts, targetParts);
  if (pair && !listed.has(pair)) {
    return `a module imports only its own repo; reach ${targetParts[0]}/ through its service`;
  }
  return undefined;
}

/** "file → repo" when a functions/src file (not a test) imports another module's repo, else undefined. */
function crossModuleRepoImport(fromParts, targetParts) {
  if (!fromParts || !targetParts || fromParts.length < 2) return undefined;
  if (/\.test\.tsx?$/.test(fromParts[fromParts.length - 1])) return undefined;
  const targetName = targetParts[targetParts.length - 1].replace(/\.ts$/, "");
  if (!isRepo(targetName) || targetParts[0] === fromParts[0]) return undefined;
  return `${fromParts.join("/")} → ${[...targetParts.slice(0, -1), targetName].join("/")}`;
}

module.exports = {
  meta: {
    type: "problem",
    docs: { description: "one-way import boundaries between packages and layers" },
    schema: [
      {
        type: "object",
        properties: { crossModuleRepoImports: { type: "array", items: { type: "string" } } },
        additionalProperties: false,
      },
    ],
    messages: {
      boundary: "Import boundary: {{reason}} ('{{source}}').",
      staleException:
        "Import boundary: '{{pair}}' is listed in CROSS_MODULE_REPO_IMPORTS but no longer imported; remove it from the list.",
    },
  },
  create(context) {
    const file = context.filename;
    const fromParts = functionsSrcParts(file);
    const option = context.options[0]?.crossModuleRepoImports;
    const allowed = option ? new Set(option) : CROSS_MODULE_REPO_IMPORTS;
    const listed = new Set(
      fromParts ? [...allowed.keys()].filter((pair) => pair.startsWith(`${fromParts.join("/")} → `)) : [],
    );
    const check = (node) => {
      if (!node.source || typeof node.source.value !== "string") return;
      const target = resolveImport(node.source.value, file);
      if (target) listed.delete(crossModuleRepoImport(fromParts, functionsSrcParts(target)));
      const reason = violation(file, node.source.value, allowed);
      if (reason)
        context.report({
          node: node.source,
          messageId: "boundary",
          data: { reason, source: node.source.value },
        });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      "Program:exit"(node) {
        for (const pair of listed) context.report({ node, messageId: "staleException", data: { pair } });
      },
    };
  },
  violation,
  CROSS_MODULE_REPO_IMPORTS,
};
