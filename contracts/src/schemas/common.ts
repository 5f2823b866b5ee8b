/**
 * Building blocks of the contract schemas: each contract type has one zod schema (in this folder, named
 * after its contract file), which the web decodes the API's answers with and the API validates the same
 * shapes with. A schema is typed against its contract type, so the two cannot drift apart.
 */
import { z } from "zod/mini";

/** A whole number, zero or more (counts, sizes, pages). */
export const count = z.int().check(z.minimum(0));

/** True for a whole number, zero or more. */
export const isCount = (value: unknown): value is number => count.safeParse(value).success;

export const nullableString = z.nullable(z.string());

/** The keys of a record of texts, as the values a field may take (failure reasons, operations). */
export const keysOf = <K extends string>(record: Record<K, unknown>) =>
  z.enum(Object.keys(record) as [K, ...K[]]);
