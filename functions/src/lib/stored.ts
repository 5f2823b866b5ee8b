/**
 * Stored documents are decoded, never cast. Every kind of document the functions keep in Firestore has one
 * schema (zod/mini), beside the repository of the module that owns its collection (`<module>/documents.ts`),
 * and every repository that reads that kind decodes it here through that schema.
 *
 * A document that does not decode is logged (`storedDocumentUnreadable`: its kind, its path, which holds
 * ids only, and the names of the fields that did not decode, never their values) and then either fails the
 * read with a `StoredDocumentError` (`decodeDocument`, `decodeDocuments`: an API request answers 500
 * "Unexpected error occurred", a task delivery fails and is retried) or is left out (`readableDocument`,
 * `readableDocuments`: lists whose other documents still count, where the hand-written decoders before
 * the schemas left a malformed document out too). Each repository says which it does.
 *
 * A schema accepts every document the product writes today and wrote before (a field added later has the
 * default the code gave its absence), and rejects what the product never writes. Fields a schema does not
 * name are dropped from the decoded value.
 */
import type { z } from "zod/mini";
import { storedDocumentUnreadable } from "../logs";

/** What the decoders read of a document snapshot (firebase-admin's `DocumentSnapshot` is one). */
export interface StoredSnapshot {
  readonly id: string;
  readonly exists: boolean;
  readonly ref: { readonly path: string };
  data(): unknown;
}

type Decoded<T> = { success: true; value: T } | { success: false; fields: string[] };

/** One kind of stored document: its name (for errors and logs) and how its data decodes. */
export interface StoredKind<T> {
  readonly name: string;
  /** `path`: the document's path (a kind whose fields are sealed for their place reads it). */
  decode(data: unknown, id: string, path?: string): Decoded<T>;
}

/** At most this many fields are named in an error or a log line. */
const MAX_FIELDS = 10;

function fieldsOf(error: z.core.$ZodError): string[] {
  const fields = error.issues.map((issue) =>
    issue.path.length === 0 ? "(document)" : issue.path.map(String).join("."),
  );
  return [...new Set(fields)].slice(0, MAX_FIELDS);
}

/** A kind whose decoded value is the document's data as the schema reads it. */
export function storedKind<T>(name: string, schema: z.ZodMiniType<T>): StoredKind<T> {
  return {
    name,
    decode(data) {
      const result = schema.safeParse(data);
      return result.success
        ? { success: true, value: result.data }
        : { success: false, fields: fieldsOf(result.error) };
    },
  };
}

/**
 * A kind whose decoded value carries the document's id as `idField` (`policyId`, `exportId`...): the schema
 * reads the document's data with the id added (so an answer's schema that names the id fits as it is).
 */
export function storedKindWithId<T>(name: string, idField: string, schema: z.ZodMiniType<T>): StoredKind<T> {
  const kind = storedKind(name, schema);
  return {
    name,
    decode(data, id) {
      const fields = typeof data === "object" && data !== null ? data : {};
      return kind.decode({ ...fields, [idField]: id }, id);
    },
  };
}

/** A stored document that does not decode with its kind's schema (logged where it was read). */
export class StoredDocumentError extends Error {
  constructor(
    readonly kind: string,
    readonly path: string,
    readonly fields: string[],
  ) {
    super(`The stored ${kind} ${path} does not decode (${fields.join(", ")})`);
    this.name = "StoredDocumentError";
  }
}

function decodeOrReport<T>(
  kind: StoredKind<T>,
  snapshot: StoredSnapshot,
  handling: "failed" | "skipped",
): T | undefined {
  if (!snapshot.exists) return undefined;
  const decoded = kind.decode(snapshot.data(), snapshot.id, snapshot.ref.path);
  if (decoded.success) return decoded.value;
  const path = snapshot.ref.path;
  storedDocumentUnreadable({ kind: kind.name, path, fields: decoded.fields, handling });
  if (handling === "failed") throw new StoredDocumentError(kind.name, path, decoded.fields);
  return undefined;
}

/** The document decoded; undefined when it does not exist. `StoredDocumentError` when it does not decode. */
export function decodeDocument<T>(kind: StoredKind<T>, snapshot: StoredSnapshot): T | undefined {
  return decodeOrReport(kind, snapshot, "failed");
}

/** A document a query answered (so it exists), decoded; `StoredDocumentError` when it does not decode. */
export function decodeQueried<T>(kind: StoredKind<T>, snapshot: StoredSnapshot): T {
  const decoded = decodeOrReport(kind, snapshot, "failed");
  if (decoded === undefined) throw new StoredDocumentError(kind.name, snapshot.ref.path, ["(missing)"]);
  return decoded;
}

/** Every document decoded (those that do not exist left out); `StoredDocumentError` at the first that does not decode. */
export function decodeDocuments<T>(kind: StoredKind<T>, snapshots: readonly StoredSnapshot[]): T[] {
  return snapshots.flatMap((snapshot) => decodeOrReport(kind, snapshot, "failed") ?? []);
}

/** The document decoded; undefined when it does not exist, or when it does not decode (logged). */
export function readableDocument<T>(kind: StoredKind<T>, snapshot: StoredSnapshot): T | undefined {
  return decodeOrReport(kind, snapshot, "skipped");
}

/** The documents that exist and decode; those that do not decode are left out (each logged). */
export function readableDocuments<T>(kind: StoredKind<T>, snapshots: readonly StoredSnapshot[]): T[] {
  return snapshots.flatMap((snapshot) => decodeOrReport(kind, snapshot, "skipped") ?? []);
}
