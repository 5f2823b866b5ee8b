/**
 * No import cycles, type imports included.
 *
 * The rule builds the graph of the repository's own files from every import of every kind (value and type
 * imports and exports, `import("…")` types and calls, `require`), resolving each one as TypeScript does
 * with the nearest tsconfig.json (its `paths` aliases included), and finds its strongly connected
 * components. A file on a cycle of static value imports is reported as on an import cycle; a file on a
 * cycle that closes only through type imports, `import("…")` or `require`, as on a cycle through type
 * imports; each with the cycle it is on.
 *
 * Each file is read and parsed once per lint run (keyed by its modification time, so an editor's long
 * running ESLint sees edits).
 */
const fs = require("node:fs");
const path = require("node:path");
const ts = require("typescript");

const ROOT = path.resolve(__dirname, "..");
const BASE_CONFIG = path.join(ROOT, "tsconfig.base.json");

/** @type {Map<string, ts.CompilerOptions>} compiler options per tsconfig path */
const optionsByConfig = new Map();
/** @type {Map<string, {mtimeMs: number, edges: {file: string, value: boolean}[]}>} */
const edgesByFile = new Map();

function compilerOptionsFor(file) {
  const config = ts.findConfigFile(path.dirname(file), ts.sys.fileExists, "tsconfig.json");
  const chosen = config && config.startsWith(ROOT + path.sep) ? config : BASE_CONFIG;
  let options = optionsByConfig.get(chosen);
  if (!options) {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      chosen,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic() {} },
    );
    options = parsed ? parsed.options : {};
    optionsByConfig.set(chosen, options);
  }
  return options;
}

/** Whether an import or export declaration brings in values (not only types). */
function bringsValues(statement) {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    if (!clause) return true; // a side-effect import
    if (clause.isTypeOnly) return false;
    if (clause.name) return true;
    const bindings = clause.namedBindings;
    if (!bindings || ts.isNamespaceImport(bindings)) return true;
    return bindings.elements.some((element) => !element.isTypeOnly);
  }
  if (ts.isExportDeclaration(statement)) {
    if (statement.isTypeOnly) return false;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) return true;
    return clause.elements.some((element) => !element.isTypeOnly);
  }
  return false;
}

/** The module specifiers of a file, each with whether a static value import uses it. */
function specifiersOf(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const valueSpecifiers = new Set();
  for (const statement of source.statements) {
    const specifier = statement.moduleSpecifier;
    if (specifier && ts.isStringLiteral(specifier) && bringsValues(statement))
      valueSpecifiers.add(specifier.text);
  }
  const all = ts.preProcessFile(text, true, true).importedFiles.map((reference) => reference.fileName);
  return [...new Set(all)].map((specifier) => ({ specifier, value: valueSpecifiers.has(specifier) }));
}

function edgesOf(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return [];
  }
  const cached = edgesByFile.get(file);
  if (cached && cached.mtimeMs === stat.mtimeMs) return cached.edges;
  const options = compilerOptionsFor(file);
  const edges = [];
  for (const { specifier, value } of specifiersOf(file, fs.readFileSync(file, "utf8"))) {
    const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule;
    if (!resolved) continue;
    const target = path.resolve(resolved.resolvedFileName);
    const inside = target.startsWith(ROOT + path.sep) && !target.split(path.sep).includes("node_modules");
    if (inside && !target.endsWith(".d.ts")) edges.push({ file: target, value });
  }
  edgesByFile.set(file, { mtimeMs: stat.mtimeMs, edges });
  return edges;
}

/**
 * Tarjan's strongly connected components over the files reachable from `start`, following the edges
 * `follow` keeps. Returns the component that holds `start`.
 */
function componentOf(start, follow) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  let counter = 0;
  let found = [start];
  // Iterative, so that long import chains do not overflow the call stack.
  const visit = (root) => {
    const work = [{ file: root, next: 0, targets: null }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      frame.targets ??= edgesOf(frame.file)
        .filter(follow)
        .map((edge) => edge.file);
      if (frame.next < frame.targets.length) {
        const target = frame.targets[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ file: target, next: 0, targets: null });
        } else if (onStack.has(target)) {
          low.set(frame.file, Math.min(low.get(frame.file), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].file;
        low.set(parent, Math.min(low.get(parent), low.get(frame.file)));
      }
      if (low.get(frame.file) === index.get(frame.file)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.file);
        if (component.includes(start)) found = component;
      }
    }
  };
  visit(start);
  return found;
}

function onCycle(file, follow) {
  const component = componentOf(file, follow);
  if (component.length > 1) return component;
  return edgesOf(file).some((edge) => follow(edge) && edge.file === file) ? component : undefined;
}

/**
 * The shortest way from `file` back to itself inside its component along the edges `follow` keeps, as
 * repository-relative paths.
 */
function cyclePath(file, component, follow) {
  const members = new Set(component);
  const previous = new Map();
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const edge of edgesOf(current)) {
      const target = edge.file;
      if (!follow(edge) || !members.has(target)) continue;
      if (target === file) {
        const steps = [current];
        while (steps[0] !== file) steps.unshift(previous.get(steps[0]));
        return [...steps, file].map((step) => path.relative(ROOT, step)).join(" → ");
      }
      if (!previous.has(target)) {
        previous.set(target, current);
        queue.push(target);
      }
    }
  }
  return path.relative(ROOT, file);
}

/** The import cycle `file` is on (`values`: one of static value imports alone), or undefined. */
function importCycle(file) {
  const resolved = path.resolve(file);
  const any = onCycle(resolved, () => true);
  if (!any) return undefined;
  const values = onCycle(resolved, (edge) => edge.value);
  return values
    ? { values: true, cycle: cyclePath(resolved, values, (edge) => edge.value) }
    : { values: false, cycle: cyclePath(resolved, any, () => true) };
}

module.exports = {
  meta: {
    type: "problem",
    docs: { description: "no import cycle, type imports included" },
    schema: [],
    messages: {
      cycle: "Import cycle: {{cycle}}. Let one module depend on the other, not both on each other.",
      typeCycle: "Import cycle through type imports: {{cycle}}. Move the shared types to the lower module.",
    },
  },
  create(context) {
    return {
      Program(node) {
        const found = importCycle(context.filename);
        if (found) {
          context.report({
            node,
            messageId: found.values ? "cycle" : "typeCycle",
            data: { cycle: found.cycle },
          });
        }
      },
    };
  },
  importCycle,
};
