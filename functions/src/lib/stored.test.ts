import { logger } from "firebase-functions";
import { z } from "zod/mini";
import {
  StoredDocumentError,
  decodeDocument,
  decodeDocuments,
  decodeQueried,
  readableDocument,
  readableDocuments,
  storedKind,
  storedKindWithId,
  type StoredSnapshot,
} from "./stored";

const NOTE = storedKindWithId(
  "note",
  "noteId",
  z.object({ noteId: z.string(), title: z.string(), pages: z._default(z.number(), 0) }),
);

function snapshot(path: string, data: unknown): StoredSnapshot {
  return {
    id: path.slice(path.lastIndexOf("/") + 1),
    exists: data !== undefined,
    ref: { path },
    data: () => data,
  };
}

const logged: unknown[][] = [];

beforeEach(() => {
  logged.length = 0;
  jest.spyOn(logger, "error").mockImplementation((...args: unknown[]) => {
    logged.push(args);
  });
});

afterEach(() => jest.restoreAllMocks());

test("when a document decodes, then its data comes with its id and the defaults of absent fields", () => {
  expect(decodeDocument(NOTE, snapshot("organizations/o1/notes/n1", { title: "Plan", extra: true }))).toEqual(
    {
      noteId: "n1",
      title: "Plan",
      pages: 0,
    },
  );
  expect(logged).toEqual([]);
});

test("when a document does not exist, then there is none, and nothing is logged", () => {
  expect(decodeDocument(NOTE, snapshot("organizations/o1/notes/n1", undefined))).toBeUndefined();
  expect(readableDocument(NOTE, snapshot("organizations/o1/notes/n1", undefined))).toBeUndefined();
  expect(logged).toEqual([]);
});

test("when a document does not decode, then the read fails with its kind, its path and the fields, never their values", () => {
  const broken = snapshot("organizations/o1/notes/n1", { title: 42, pages: "secret subject of a mail" });
  let error: unknown;
  try {
    decodeDocument(NOTE, broken);
  } catch (thrown) {
    error = thrown;
  }
  expect(error).toBeInstanceOf(StoredDocumentError);
  expect(error).toMatchObject({
    kind: "note",
    path: "organizations/o1/notes/n1",
    fields: ["title", "pages"],
    message: "The stored note organizations/o1/notes/n1 does not decode (title, pages)",
  });
  expect(logged).toEqual([
    [
      "stored document unreadable",
      { kind: "note", path: "organizations/o1/notes/n1", fields: ["title", "pages"], handling: "failed" },
    ],
  ]);
  expect(JSON.stringify(logged)).not.toContain("secret subject");
});

test("when a document of a list does not decode, then a decoded list fails and a readable one leaves it out, logged", () => {
  const docs = [
    snapshot("organizations/o1/notes/n1", { title: "Plan" }),
    snapshot("organizations/o1/notes/n2", { title: null }),
    snapshot("organizations/o1/notes/n3", { title: "Budget", pages: 3 }),
  ];
  expect(() => decodeDocuments(NOTE, docs)).toThrow(StoredDocumentError);
  logged.length = 0;
  expect(readableDocuments(NOTE, docs).map((note) => note.noteId)).toEqual(["n1", "n3"]);
  expect(readableDocument(NOTE, docs[1]!)).toBeUndefined();
  expect(logged.map(([, entry]) => entry)).toEqual([
    { kind: "note", path: "organizations/o1/notes/n2", fields: ["title"], handling: "skipped" },
    { kind: "note", path: "organizations/o1/notes/n2", fields: ["title"], handling: "skipped" },
  ]);
});

test("when a document that is not an object is read, then the document as a whole is named", () => {
  const COUNTER = storedKind("counter", z.number());
  expect(() => decodeQueried(COUNTER, snapshot("counters/c1", "many"))).toThrow(
    "The stored counter counters/c1 does not decode ((document))",
  );
  expect(() => decodeQueried(COUNTER, snapshot("counters/c1", undefined))).toThrow(StoredDocumentError);
});
