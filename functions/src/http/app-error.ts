import type { ApiError } from "@alpvault/contracts/errors";

/**
 * The one error type of the API. `code` is the numeric code of the spec's error object (§8) and the HTTP
 * status; `message` is shown to the user as is; `cause` is kept for logs and never sent.
 */
export class AppError extends Error {
  readonly code: number;

  constructor(code: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AppError";
    this.code = code;
  }

  toJSON(): ApiError {
    return { code: this.code, message: this.message };
  }

  static badRequest(message: string): AppError {
    return new AppError(400, message);
  }

  static unauthenticated(message: string): AppError {
    return new AppError(401, message);
  }

  static forbidden(message: string): AppError {
    return new AppError(403, message);
  }

  static notFound(message: string): AppError {
    return new AppError(404, message);
  }

  static conflict(message: string): AppError {
    return new AppError(409, message);
  }

  static unavailable(message: string, cause?: unknown): AppError {
    return new AppError(503, message, { cause });
  }
}
