/**
 * Query parameters of GET routes, checked before use: each is one value (a repeated key is refused), and ids
 * are checked as ids before they reach Firestore.
 */
import { isId } from "@alpvault/contracts/ids";
import { DomainError } from "./errors";

/** The parameter's one text value, or undefined when it is absent; repeated or not text: invalid. */
function single(query: Record<string, unknown>, name: string, message: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw DomainError.invalid(message);
  return value;
}

/** An optional id parameter (`?resourceId=`): undefined when absent; anything but one id is invalid. */
export function optionalIdParam(
  query: Record<string, unknown>,
  name: string,
  message: string,
): string | undefined {
  const value = single(query, name, message);
  if (value !== undefined && !isId(value)) throw DomainError.invalid(message);
  return value;
}

/** A whole number parameter from `min` to `max`, `fallback` when absent; anything else is invalid. */
export function wholeNumberParam(
  query: Record<string, unknown>,
  name: string,
  range: { min: number; max: number; fallback: number },
  message: string,
): number {
  const value = single(query, name, message);
  if (value === undefined) return range.fallback;
  if (!/^\d{1,6}$/.test(value)) throw DomainError.invalid(message);
  const number = Number(value);
  if (number < range.min || number > range.max) throw DomainError.invalid(message);
  return number;
}

/** An optional opaque text parameter (a page token) of at most `maxLength` characters. */
export function optionalTextParam(
  query: Record<string, unknown>,
  name: string,
  maxLength: number,
  message: string,
): string | undefined {
  const value = single(query, name, message);
  if (value !== undefined && (value.length === 0 || value.length > maxLength))
    throw DomainError.invalid(message);
  return value;
}
