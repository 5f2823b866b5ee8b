/**
 * Drive's search query language (`files.list?q=`), the subset we serve: `'<id>' in parents`,
 * `'<email>' in owners|writers|readers`, `name`/`mimeType` `=`/`!=`/`contains`, `fullText contains`,
 * `modifiedTime`/`createdTime` comparisons, `trashed`/`starred`/`sharedWithMe` `=`/`!=`, joined with
 * `and`/`or`/`not` and parentheses. A query outside it is an error, as Google answers 400 for it.
 */

/** What a query can ask about one file. */
export interface QuerySubject {
  name: string;
  mimeType: string;
  trashed: boolean;
  starred: boolean;
  sharedWithMe: boolean;
  parents: string[];
  owners: string[];
  writers: string[];
  readers: string[];
  createdTime: string;
  modifiedTime: string;
  /** Name and text content, for `fullText contains`. */
  fullText: () => string;
}

/** How `'me'` and `'root'` resolve for the caller. */
export interface QueryScope {
  me: string;
  root: string;
}

export class QueryError extends Error {}

type Token =
  | { kind: "string"; value: string }
  | { kind: "word"; value: string }
  | { kind: "op"; value: string }
  | { kind: "paren"; value: "(" | ")" };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (/\s/.test(char)) {
      index += 1;
    } else if (char === "'" || char === '"') {
      let value = "";
      index += 1;
      for (;;) {
        if (index >= text.length) throw new QueryError("unterminated string");
        const next = text[index] as string;
        if (next === "\\" && index + 1 < text.length) {
          value += text[index + 1];
          index += 2;
        } else if (next === char) {
          index += 1;
          break;
        } else {
          value += next;
          index += 1;
        }
      }
      tokens.push({ kind: "string", value });
    } else if (char === "(" || char === ")") {
      tokens.push({ kind: "paren", value: char });
      index += 1;
    } else if ("=!<>".includes(char)) {
      const two = text.slice(index, index + 2);
      if (two === "!=" || two === "<=" || two === ">=") {
        tokens.push({ kind: "op", value: two });
        index += 2;
      } else if (char === "!") {
        throw new QueryError("unexpected !");
      } else {
        tokens.push({ kind: "op", value: char });
        index += 1;
      }
    } else {
      const match = /^[A-Za-z0-9_.:-]+/.exec(text.slice(index));
      if (!match) throw new QueryError(`unexpected ${char}`);
      tokens.push({ kind: "word", value: match[0] });
      index += match[0].length;
    }
  }
  return tokens;
}

type Predicate = (subject: QuerySubject, scope: QueryScope) => boolean;

const LIST_FIELDS = new Set(["parents", "owners", "writers", "readers"]);
const TEXT_FIELDS = new Set(["name", "mimeType"]);
const TIME_FIELDS = new Set(["modifiedTime", "createdTime"]);
const BOOL_FIELDS = new Set(["trashed", "starred", "sharedWithMe"]);

function nameMatches(name: string, prefix: string): boolean {
  const lower = name.toLowerCase();
  const wanted = prefix.toLowerCase();
  if (lower.startsWith(wanted)) return true;
  return lower.split(/[^\p{L}\p{N}]+/u).some((word) => word.startsWith(wanted));
}

function compare(left: number | string, op: string, right: number | string): boolean {
  switch (op) {
    case "=":
      return left === right;
    case "!=":
      return left !== right;
    case "<":
      return left < right;
    case "<=":
      return left <= right;
    case ">":
      return left > right;
    case ">=":
      return left >= right;
    default:
      throw new QueryError(`bad operator ${op}`);
  }
}

function parseTime(value: string): number {
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)) {
    throw new QueryError(`invalid time ${value}`);
  }
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(value) && value.includes("T");
  const parsed = Date.parse(hasZone || !value.includes("T") ? value : `${value}Z`);
  if (Number.isNaN(parsed)) throw new QueryError(`invalid time ${value}`);
  return parsed;
}

/** Compiles `q`; throws QueryError when Google would answer 400 Invalid Value. */
export function compileQuery(text: string): Predicate {
  const tokens = tokenize(text);
  let position = 0;
  const peek = (): Token | undefined => tokens[position];
  const next = (): Token => {
    const token = tokens[position];
    if (!token) throw new QueryError("unexpected end of query");
    position += 1;
    return token;
  };
  const isWord = (token: Token | undefined, word: string): boolean =>
    token?.kind === "word" && token.value.toLowerCase() === word;

  const parseOr = (): Predicate => {
    const parts = [parseAnd()];
    while (isWord(peek(), "or")) {
      position += 1;
      parts.push(parseAnd());
    }
    return parts.length === 1 ? (parts[0] as Predicate) : (s, c) => parts.some((part) => part(s, c));
  };
  const parseAnd = (): Predicate => {
    const parts = [parseNot()];
    while (isWord(peek(), "and")) {
      position += 1;
      parts.push(parseNot());
    }
    return parts.length === 1 ? (parts[0] as Predicate) : (s, c) => parts.every((part) => part(s, c));
  };
  const parseNot = (): Predicate => {
    if (isWord(peek(), "not")) {
      position += 1;
      const inner = parseNot();
      return (s, c) => !inner(s, c);
    }
    return parsePrimary();
  };
  const parsePrimary = (): Predicate => {
    const token = next();
    if (token.kind === "paren" && token.value === "(") {
      const inner = parseOr();
      const close = next();
      if (close.kind !== "paren" || close.value !== ")") throw new QueryError("missing )");
      return inner;
    }
    if (token.kind === "string") {
      // 'value' in field
      if (!isWord(next(), "in")) throw new QueryError("expected in");
      const field = next();
      if (field.kind !== "word" || !LIST_FIELDS.has(field.value)) throw new QueryError("bad in field");
      const value = token.value;
      const name = field.value as "parents" | "owners" | "writers" | "readers";
      return (subject, scope) => {
        let wanted = value;
        if (name === "parents" && value === "root") wanted = scope.root;
        if (name !== "parents" && value === "me") wanted = scope.me;
        if (name === "parents") return subject.parents.includes(wanted);
        return subject[name].includes(wanted.toLowerCase());
      };
    }
    if (token.kind !== "word") throw new QueryError("unexpected token");
    const field = token.value;
    const operator = next();
    const operatorText =
      operator.kind === "word" ? operator.value : operator.kind === "op" ? operator.value : "";
    const valueToken = next();
    if (TEXT_FIELDS.has(field) || field === "fullText") {
      if (valueToken.kind !== "string") throw new QueryError("expected a string");
      const value = valueToken.value;
      if (operatorText === "contains") {
        if (field === "fullText") {
          const wanted = value.toLowerCase();
          return (subject) => subject.fullText().toLowerCase().includes(wanted);
        }
        if (field === "mimeType") return (subject) => subject.mimeType.includes(value);
        return (subject) => nameMatches(subject.name, value);
      }
      if (field === "fullText" || (operatorText !== "=" && operatorText !== "!=")) {
        throw new QueryError("bad operator");
      }
      const key = field as "name" | "mimeType";
      return (subject) => compare(subject[key], operatorText, value);
    }
    if (TIME_FIELDS.has(field)) {
      if (valueToken.kind !== "string" || operator.kind !== "op") throw new QueryError("bad time term");
      const value = parseTime(valueToken.value);
      const key = field as "modifiedTime" | "createdTime";
      return (subject) => compare(Date.parse(subject[key]), operatorText, value);
    }
    if (BOOL_FIELDS.has(field)) {
      if (operatorText !== "=" && operatorText !== "!=") throw new QueryError("bad operator");
      if (valueToken.kind !== "word" || !/^(true|false)$/i.test(valueToken.value)) {
        throw new QueryError("expected true or false");
      }
      const value = valueToken.value.toLowerCase() === "true";
      const key = field as "trashed" | "starred" | "sharedWithMe";
      return (subject) => (operatorText === "=" ? subject[key] === value : subject[key] !== value);
    }
    throw new QueryError(`unknown field ${field}`);
  };

  if (tokens.length === 0) return () => true;
  const predicate = parseOr();
  if (position !== tokens.length) throw new QueryError("trailing tokens");
  return predicate;
}
