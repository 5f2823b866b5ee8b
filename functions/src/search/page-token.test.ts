import { DomainError } from "../lib/errors";
import { PAGE_TOKEN_MESSAGES, decodePageToken, encodePageToken, searchDigest } from "./page-token";

const digest = searchDigest(["gmail", "user-1", ["invoice"], null]);
const token = {
  page: 3,
  position: { stream: 1, after: "18c0000000001f0f", word: 0 },
  total: 2_050,
  totalAtLeast: true,
};

const refusal = (text: string, forDigest = digest): string => {
  try {
    decodePageToken(text, forDigest);
  } catch (error) {
    if (error instanceof DomainError && error.kind === "invalid") return error.message;
    throw error;
  }
  throw new Error("the token was accepted");
};

const encoded = (body: unknown) => Buffer.from(JSON.stringify(body)).toString("base64url");

test("a token decodes to the page and position it was made with, and names no content", () => {
  const text = encodePageToken(digest, token);
  expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(decodePageToken(text, digest)).toEqual(token);
  expect(Buffer.from(text, "base64url").toString()).not.toContain("invoice");
  const hashed = { ...token, position: { stream: 0, after: `%${"ab".repeat(32)}`, word: 1 } };
  expect(decodePageToken(encodePageToken(digest, hashed), digest)).toEqual(hashed);
});

test("a token of another search, or malformed in any way, is refused with a 400 text", () => {
  const text = encodePageToken(digest, token);
  expect(refusal(text, searchDigest(["gmail", "user-1", ["receipt"], null]))).toBe(
    PAGE_TOKEN_MESSAGES.otherSearch,
  );
  const body = JSON.parse(Buffer.from(text, "base64url").toString()) as Record<string, unknown>;
  const broken: unknown[] = [
    { ...body, v: 2 },
    { ...body, p: 1 },
    { ...body, p: 2.5 },
    { ...body, s: -1 },
    { ...body, a: "../items/x" },
    { ...body, a: "__name__" },
    { ...body, t: "many" },
    { ...body, l: "yes" },
    { ...body, extra: 1 },
    [body],
    null,
  ];
  for (const value of broken) expect(refusal(encoded(value))).toBe(PAGE_TOKEN_MESSAGES.invalid);
  for (const text of ["", "not a token", "%%%", "x".repeat(1_001), Buffer.from("{").toString("base64url")]) {
    expect(refusal(text)).toBe(PAGE_TOKEN_MESSAGES.invalid);
  }
});
