/**
 * Decoding the API's answers in the browser: each answer is checked against its contract type's schema
 * (`@alpvault/contracts/schemas/…`), and anything else is an unexpected answer.
 */
import type { ZodMiniType } from "zod/mini";
import { UNEXPECTED_ERROR } from "@alpvault/contracts/errors";
import { ApiError } from "./api-client";

/** The answer as its schema reads it; an `ApiError` (unexpected answer) when it does not fit. */
export function decodeAnswer<T>(schema: ZodMiniType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new ApiError(UNEXPECTED_ERROR);
}
