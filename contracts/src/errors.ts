/** The error object of spec §8: every failed API call answers with this shape. */
export interface ApiError {
  code: number;
  message: string;
}

export const UNEXPECTED_ERROR: ApiError = { code: 500, message: "Unexpected error occurred" };

/** Spec §8: a value lacking the `{code, message}` shape becomes code 500, "Unexpected error occurred". */
export function toApiError(value: unknown): ApiError {
  if (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { code?: unknown }).code === "number" &&
    typeof (value as { message?: unknown }).message === "string"
  ) {
    const { code, message } = value as ApiError;
    return { code, message };
  }
  return { ...UNEXPECTED_ERROR };
}
