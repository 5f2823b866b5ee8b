import { compileQuery, QueryError, type QuerySubject } from "./query";

const scope = { me: "me@example.test", root: "ROOT" };

function subject(overrides: Partial<QuerySubject> = {}): QuerySubject {
  return {
    name: "Budget 2026.xlsx",
    mimeType: "application/pdf",
    trashed: false,
    starred: false,
    sharedWithMe: false,
    parents: ["ROOT"],
    owners: ["me@example.test"],
    writers: ["me@example.test"],
    readers: ["me@example.test"],
    createdTime: "2026-01-01T00:00:00.000Z",
    modifiedTime: "2026-03-01T10:00:00.000Z",
    fullText: () => "Budget 2026 body text",
    ...overrides,
  };
}

const matches = (q: string, overrides: Partial<QuerySubject> = {}): boolean =>
  compileQuery(q)(subject(overrides), scope);

test("when q uses parents, owners and root aliases, then they resolve for the caller", () => {
  expect(matches("'root' in parents")).toBe(true);
  expect(matches("'other' in parents")).toBe(false);
  expect(matches("'me' in owners")).toBe(true);
  expect(matches("'me' in owners", { owners: ["x@example.test"] })).toBe(false);
});

test("when q combines and, or, not and parentheses, then precedence is as Drive's", () => {
  expect(matches("trashed = false and (mimeType = 'x' or name contains 'budget')")).toBe(true);
  expect(matches("not trashed = false or starred = true")).toBe(false);
  expect(matches("mimeType != 'application/vnd.google-apps.folder' and trashed=false")).toBe(true);
  expect(matches("trashed = true", { trashed: true })).toBe(true);
});

test("when name contains is used, then it matches word prefixes like Drive does", () => {
  expect(matches("name contains '2026'")).toBe(true);
  expect(matches("name contains 'udget'")).toBe(false);
  expect(matches("name = 'Budget 2026.xlsx'")).toBe(true);
  expect(matches("name = 'It\\'s'", { name: "It's" })).toBe(true);
  expect(matches("fullText contains 'body'")).toBe(true);
});

test("when times are compared, then RFC 3339 values compare as instants", () => {
  expect(matches("modifiedTime > '2026-02-01T00:00:00'")).toBe(true);
  expect(matches("modifiedTime > '2026-03-01T10:00:00Z'")).toBe(false);
  expect(matches("createdTime <= '2026-01-01T00:00:00.000Z'")).toBe(true);
});

test("when q is malformed or uses an unknown field, then it is rejected", () => {
  for (const q of [
    "name = ",
    "trashed = maybe",
    "foo = 'x'",
    "(trashed = false",
    "'x' in nothing",
    "modifiedTime > 'soon'",
    "name contains 'x' and",
  ]) {
    expect(() => compileQuery(q)).toThrow(QueryError);
  }
});
