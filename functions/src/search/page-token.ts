/**
 * Search page tokens: where the next page of a search starts, so that a deep page costs what the first one
 * does (a cursor, not an offset whose skipped documents Firestore reads and bills). A token is opaque to
 * the caller (base64url of a small JSON): the search it belongs to (a digest of service, resource, words
 * and date), the page it leads to, the stream and catalog document after which that page starts, and the
 * total the first page found. It names catalog document ids only: no keyword, name or other content.
 */
import { createHash } from "node:crypto";
import { DomainError } from "../lib/errors";

/** Where a page starts: the `stream`th query of the search, after the catalog document `after` (its start when null). */
export interface Position {
  stream: number;
  after: string | null;
  /** Which of the search's words the streams are narrowed by (several words: the rarest, chosen once). */
  word: number;
}

export interface PageToken {
  page: number;
  position: Position;
  /** The total the search found so far, and whether it is a lower bound. */
  total: number;
  totalAtLeast: boolean;
}

export const PAGE_TOKEN_MESSAGES = {
  invalid: "The page token is not valid: search again",
  otherSearch: "The page token belongs to another search: search again",
  pageMismatch: "The page token leads to another page than the one asked for",
} as const;

/** A catalog document id (`catalogDocId`): a plain id, or "%" and a SHA-256 in hex. */
const DOC_ID = /^(%[0-9a-f]{64}|[A-Za-z0-9_.@:+=~-]{1,400})$/;
const RESERVED_ID = /^(\.|\.\.|__.*__)$/;

const isInt = (value: unknown, min: number, max: number): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;

/** The token's fields, checked one by one (anything else in it makes it invalid). */
function checked(value: unknown): PageToken & { digest: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalid();
  const body = value as Record<string, unknown>;
  const keys = Object.keys(body).sort().join(",");
  const after = body.a;
  const afterValid =
    after === null || (typeof after === "string" && DOC_ID.test(after) && !RESERVED_ID.test(after));
  if (
    keys !== "a,h,l,p,s,t,v,w" ||
    body.v !== 1 ||
    typeof body.h !== "string" ||
    !/^[0-9a-f]{16}$/.test(body.h) ||
    !isInt(body.p, 2, 1_000_000) ||
    !isInt(body.s, 0, 7) ||
    !afterValid ||
    !isInt(body.t, 0, 1e12) ||
    !isInt(body.w, 0, 100) ||
    typeof body.l !== "boolean"
  ) {
    throw invalid();
  }
  return {
    digest: body.h,
    page: body.p,
    position: { stream: body.s, after: after as string | null, word: body.w },
    total: body.t,
    totalAtLeast: body.l,
  };
}

const invalid = () => DomainError.invalid(PAGE_TOKEN_MESSAGES.invalid);

/** The digest that ties a token to its search. */
export function searchDigest(parts: unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 16);
}

export function encodePageToken(digest: string, token: PageToken): string {
  const body = {
    v: 1,
    h: digest,
    p: token.page,
    s: token.position.stream,
    a: token.position.after,
    w: token.position.word,
    t: token.total,
    l: token.totalAtLeast,
  };
  return Buffer.from(JSON.stringify(body), "utf8").toString("base64url");
}

/** The token's page and position; a 400 for anything malformed or made for another search. */
export function decodePageToken(text: string, digest: string): PageToken {
  if (text.length > 1_000 || !/^[A-Za-z0-9_-]+$/.test(text)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw invalid();
  }
  const { digest: tokenDigest, ...token } = checked(parsed);
  if (tokenDigest !== digest) throw DomainError.invalid(PAGE_TOKEN_MESSAGES.otherSearch);
  return token;
}
