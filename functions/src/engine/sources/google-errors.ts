/** Reading the HTTP status and reason of a failed googleapis call (a GaxiosError) without casting blindly. */

export function googleStatus(error: unknown): number | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const response = (error as { response?: unknown }).response;
  if (typeof response === "object" && response !== null) {
    const status = (response as { status?: unknown }).status;
    if (typeof status === "number") return status;
  }
  const status = (error as { status?: unknown }).status;
  return typeof status === "number" ? status : undefined;
}

export function googleReason(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  let data = (error as { response?: { data?: unknown } }).response?.data;
  if (typeof data === "string") {
    // Streamed responses (`responseType: "stream"`) carry their error body as text.
    try {
      data = JSON.parse(data) as unknown;
    } catch {
      return undefined;
    }
  }
  if (typeof data !== "object" || data === null) return undefined;
  const errors = (data as { error?: { errors?: unknown } }).error?.errors;
  if (!Array.isArray(errors)) return undefined;
  const reason = (errors[0] as { reason?: unknown } | undefined)?.reason;
  return typeof reason === "string" ? reason : undefined;
}
