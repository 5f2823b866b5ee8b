/**
 * Gmail's search syntax (`q`), the subset the API's `messages.list` is used with: `from:`, `to:`, `cc:`,
 * `bcc:`, `subject:`, `after:`/`before:` (YYYY/MM/DD at midnight Pacific time, as Gmail reads dates, or
 * epoch seconds), `older_than:`/`newer_than:`, `has:attachment`, `filename:`, `in:`/`label:`, `is:`,
 * `rfc822msgid:`, `larger:`/`smaller:`, bare words and "phrases", `-` negation, `OR` and `{a b}` groups.
 */
import { badRequest } from "../http";

/** What a search looks at in one message. */
export interface SearchableMessage {
  from: string;
  to: string;
  cc: string;
  bcc: string;
  subject: string;
  /** Body text (lower case). */
  text: string;
  labelIds: ReadonlySet<string>;
  internalDate: number;
  filenames: string[];
  hasAttachment: boolean;
  size: number;
  rfc822MessageId: string;
}

type Predicate = (message: SearchableMessage) => boolean;

interface Term {
  negate: boolean;
  key?: string;
  value: string;
}

export interface CompiledQuery {
  matches: Predicate;
  /** The query asks for Spam or Trash explicitly (`in:spam`, `in:trash`, `in:anywhere`). */
  includesSpamTrash: boolean;
}

function tokenize(query: string): (Term | "OR" | Term[])[] {
  const out: (Term | "OR" | Term[])[] = [];
  let position = 0;
  let group: Term[] | undefined;
  while (position < query.length) {
    const char = query[position] as string;
    if (/\s/.test(char)) {
      position += 1;
      continue;
    }
    if (char === "{" || char === "(") {
      group = [];
      position += 1;
      continue;
    }
    if ((char === "}" || char === ")") && group) {
      out.push(group);
      group = undefined;
      position += 1;
      continue;
    }
    let negate = false;
    if (char === "-") {
      negate = true;
      position += 1;
    }
    let key: string | undefined;
    const keyMatch = /^([a-z0-9_]+):/i.exec(query.slice(position));
    if (keyMatch) {
      key = (keyMatch[1] as string).toLowerCase();
      position += keyMatch[0].length;
    }
    let value = "";
    if (query[position] === '"') {
      const end = query.indexOf('"', position + 1);
      value = query.slice(position + 1, end < 0 ? undefined : end);
      position = end < 0 ? query.length : end + 1;
    } else {
      const match = /^[^\s{}()]*/.exec(query.slice(position));
      value = match?.[0] ?? "";
      position += value.length;
    }
    if (!key && !negate && value === "OR") {
      out.push("OR");
      continue;
    }
    if (!key && value === "") continue;
    const term: Term = { negate, key, value };
    if (group) group.push(term);
    else out.push(term);
  }
  if (group) out.push(group);
  return out;
}

/** Milliseconds of midnight at the start of `year/month/day` in America/Los_Angeles. */
function pacificMidnight(year: number, month: number, day: number): number {
  const guess = Date.UTC(year, month - 1, day, 8);
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: "America/Los_Angeles",
    hour: "numeric",
    hourCycle: "h23",
  }).formatToParts(new Date(guess));
  const hour = Number(parts.find((part) => part.type === "hour")?.value ?? 0);
  return guess - hour * 3_600_000;
}

function dateValue(value: string): number {
  if (/^\d+$/.test(value) && value.length > 8) return Number(value) * 1000;
  const match = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/.exec(value);
  if (!match) throw badRequest(`Invalid search query: ${value}`, "invalidArgument");
  return pacificMidnight(Number(match[1]), Number(match[2]), Number(match[3]));
}

function relativeMs(value: string): number {
  const match = /^(\d+)([dmy])$/i.exec(value);
  if (!match) throw badRequest(`Invalid search query: ${value}`, "invalidArgument");
  const unit = (match[2] as string).toLowerCase();
  const days = unit === "d" ? 1 : unit === "m" ? 30 : 365;
  return Number(match[1]) * days * 86_400_000;
}

function sizeValue(value: string): number {
  const match = /^(\d+)([km]?)$/i.exec(value);
  if (!match) throw badRequest(`Invalid search query: ${value}`, "invalidArgument");
  const unit = (match[2] as string).toLowerCase();
  return Number(match[1]) * (unit === "k" ? 1024 : unit === "m" ? 1024 * 1024 : 1);
}

const IN_LABELS: Record<string, string> = {
  inbox: "INBOX",
  sent: "SENT",
  draft: "DRAFT",
  drafts: "DRAFT",
  spam: "SPAM",
  trash: "TRASH",
  starred: "STARRED",
  important: "IMPORTANT",
  chats: "CHAT",
  unread: "UNREAD",
};

/**
 * One search term as a predicate (negated with `-`); `onSpamTrash` is told when the term reaches into spam
 * or trash (`in:anywhere`, `in:spam`, `label:trash`).
 */
function compileTerm(
  term: Term,
  labelId: (name: string) => string | undefined,
  onSpamTrash: () => void,
): Predicate {
  const value = term.value.toLowerCase();
  let predicate: Predicate;
  const contains =
    (field: keyof Pick<SearchableMessage, "from" | "to" | "cc" | "bcc" | "subject">): Predicate =>
    (message) =>
      message[field].includes(value);
  switch (term.key) {
    case undefined:
      predicate = (message) =>
        message.subject.includes(value) ||
        message.text.includes(value) ||
        message.from.includes(value) ||
        message.to.includes(value) ||
        message.filenames.some((name) => name.includes(value));
      break;
    case "from":
    case "to":
    case "cc":
    case "bcc":
    case "subject":
      predicate = contains(term.key);
      break;
    case "after":
    case "newer": {
      const at = dateValue(value);
      predicate = (message) => message.internalDate >= at;
      break;
    }
    case "before":
    case "older": {
      const at = dateValue(value);
      predicate = (message) => message.internalDate < at;
      break;
    }
    case "newer_than": {
      const at = Date.now() - relativeMs(value);
      predicate = (message) => message.internalDate >= at;
      break;
    }
    case "older_than": {
      const at = Date.now() - relativeMs(value);
      predicate = (message) => message.internalDate < at;
      break;
    }
    case "has":
      if (value === "attachment") predicate = (message) => message.hasAttachment;
      else if (value === "userlabels") predicate = (message) => [...message.labelIds].some(isUserLabel);
      else if (value === "nouserlabels") predicate = (message) => ![...message.labelIds].some(isUserLabel);
      else predicate = () => false;
      break;
    case "filename":
      predicate = (message) => message.filenames.some((name) => name.includes(value));
      break;
    case "larger":
    case "size": {
      const bytes = sizeValue(value);
      predicate = (message) => message.size > bytes;
      break;
    }
    case "smaller": {
      const bytes = sizeValue(value);
      predicate = (message) => message.size < bytes;
      break;
    }
    case "rfc822msgid": {
      const id = value.replace(/^<|>$/g, "");
      predicate = (message) => message.rfc822MessageId.toLowerCase() === id;
      break;
    }
    case "is":
      if (value === "read") predicate = (message) => !message.labelIds.has("UNREAD");
      else {
        const id = IN_LABELS[value];
        predicate = id ? (message) => message.labelIds.has(id) : () => false;
      }
      break;
    case "in":
    case "label": {
      if (value === "anywhere" && term.key === "in") {
        if (!term.negate) onSpamTrash();
        predicate = () => true;
        break;
      }
      const id = IN_LABELS[value] ?? labelId(value);
      if (!term.negate && (id === "SPAM" || id === "TRASH")) onSpamTrash();
      predicate = id ? (message) => message.labelIds.has(id) : () => false;
      break;
    }
    case "category": {
      const id = `CATEGORY_${value.toUpperCase()}`;
      predicate = (message) => message.labelIds.has(id);
      break;
    }
    default: {
      // Not an operator Gmail knows: the whole `key:value` is a word.
      const word = `${term.key}:${value}`;
      predicate = (message) => message.subject.includes(word) || message.text.includes(word);
    }
  }
  return term.negate ? (message) => !predicate(message) : predicate;
}

/**
 * Compiles `q`. `labelId(name)` resolves a label name (as written in a query, `-` for spaces and `/`) to
 * its id, or undefined.
 */
export function compileQuery(query: string, labelId: (name: string) => string | undefined): CompiledQuery {
  let includesSpamTrash = false;
  const markSpamTrash = (): void => {
    includesSpamTrash = true;
  };
  const compile = (term: Term): Predicate => compileTerm(term, labelId, markSpamTrash);

  const tokens = tokenize(query);
  // AND of clauses; `a OR b` joins neighbours into one clause; `{a b}` is an OR group.
  const clauses: Predicate[][] = [];
  let joinNext = false;
  for (const token of tokens) {
    if (token === "OR") {
      joinNext = clauses.length > 0;
      continue;
    }
    const predicate: Predicate = Array.isArray(token)
      ? (
          (group) => (message: SearchableMessage) =>
            group.some((item) => item(message))
        )(token.map(compile))
      : compile(token);
    if (joinNext) (clauses[clauses.length - 1] as Predicate[]).push(predicate);
    else clauses.push([predicate]);
    joinNext = false;
  }
  return {
    matches: (message) => clauses.every((clause) => clause.some((item) => item(message))),
    includesSpamTrash,
  };
}

function isUserLabel(id: string): boolean {
  return id.startsWith("Label_");
}
