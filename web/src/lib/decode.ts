/**
 * Checks for decoding the API's answers in the browser: a decoder tests each field with these and rebuilds
 * the typed value, and anything else is an unexpected answer.
 */
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { ApiError } from "./api-client";

export type Fields = Record<string, unknown>;

/** An object's fields, or none (every check then fails) for anything else. */
export const asFields = (value: unknown): Fields =>
  (typeof value === "object" && value !== null ? value : {}) as Fields;
export const isString = (value: unknown): value is string => typeof value === "string";
export const isNullableString = (value: unknown): value is string | null => value === null || isString(value);
/** A finite number, zero or more (sizes, counts). */
export const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0;

/** What a decoder throws for an answer it does not recognise. */
export function unexpectedAnswer(): never {
  throw new ApiError(UNEXPECTED_ERROR);
}
