/**
 * `npm run sizes`: the largest source files and functions of the repository, against the limits a reader
 * can hold in mind (docs/architecture.md): a file of at most 400 lines, a function of at most 120.
 *
 *   npm run sizes               the files and functions over their limit, largest first, and the top 10 of each
 *   npm run sizes -- --check    the same, and exit 1 when anything is over its limit
 *
 * Counted: every .ts/.tsx/.mjs/.cjs file tracked by git, except tests (`*.test.ts(x)`, tests/), generated
 * code and type declarations. A function is any function declaration, expression, arrow function, method,
 * accessor or constructor; its lines run from its first to its last line. A function inside another counts
 * on its own and inside its parent too (a 150-line function holding a 130-line one is two findings).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { ROOT } from "./ports";

export const FILE_LIMIT = 400;
export const FUNCTION_LIMIT = 120;
const TOP = 10;

const SOURCE = /\.(ts|tsx|mjs|cjs)$/;
const EXCLUDED = [
  /\.test\.tsx?$/,
  /\.d\.ts$/,
  /^tests\//,
  /(^|\/)generated\//,
  /^web\/dist\//,
  /^functions\/lib\//,
];

export interface Sized {
  file: string;
  name: string;
  lines: number;
}

/** The source files the limits apply to, relative to the repository. */
function sourceFiles(): string[] {
  const listed = execFileSync("git", ["ls-files"], { cwd: ROOT, encoding: "utf8" }).split("\n");
  return listed.filter((file) => SOURCE.test(file) && !EXCLUDED.some((pattern) => pattern.test(file)));
}

function lineCount(text: string): number {
  if (text.length === 0) return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** A readable name for a function node: its own, its variable's, its property's, or "<anonymous>". */
function functionName(node: ts.Node, source: ts.SourceFile): string {
  const named = node as { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const parent = node.parent;
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent)) return `<callback of ${parent.expression.getText(source).slice(0, 40)}>`;
  return "<anonymous>";
}

/** Every function of one file with its line count. */
export function functionsOf(file: string, text: string): Sized[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: Sized[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, name: functionName(node, source), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export function measure(): { files: Sized[]; functions: Sized[] } {
  const files: Sized[] = [];
  const functions: Sized[] = [];
  for (const file of sourceFiles()) {
    const text = readFileSync(join(ROOT, file), "utf8");
    files.push({ file, name: file, lines: lineCount(text) });
    functions.push(...functionsOf(file, text));
  }
  const largestFirst = (a: Sized, b: Sized) => b.lines - a.lines || a.file.localeCompare(b.file);
  return { files: files.sort(largestFirst), functions: functions.sort(largestFirst) };
}

function print(title: string, entries: Sized[], limit: number, label: (entry: Sized) => string): number {
  const over = entries.filter((entry) => entry.lines > limit);
  const shown = over.length > TOP ? over : entries.slice(0, TOP);
  console.log(`\n${title}: ${over.length} over ${limit} lines`);
  for (const entry of shown) {
    console.log(
      `  ${entry.lines > limit ? "over" : "    "}  ${String(entry.lines).padStart(5)}  ${label(entry)}`,
    );
  }
  return over.length;
}

function main(): void {
  const check = process.argv.includes("--check");
  const { files, functions } = measure();
  const overFiles = print("Files", files, FILE_LIMIT, (entry) => entry.file);
  const overFunctions = print(
    "Functions",
    functions,
    FUNCTION_LIMIT,
    (entry) => `${entry.file}: ${entry.name}`,
  );
  if (check && overFiles + overFunctions > 0) process.exit(1);
}

if (require.main === module) main();
