/**
 * What went wrong, in the domain's terms: the caller sent something invalid, may not do it, asked for what
 * does not exist, conflicts with the current state, asked the wrong region, or a dependency is down.
 * The HTTP layer (http/error-handler.ts) is the one place that turns a kind into a status code.
 */
export type ErrorKind =
  | "invalid"
  | "unauthenticated"
  | "forbidden"
  | "not-found"
  | "conflict"
  | "too-large"
  | "unsupported-format"
  /** The organisation's data is served by another region's API. */
  | "misdirected"
  | "unavailable";

/**
 * The one error type for domain failures. `message` is the required text (contracts/), shown to the user as
 * is; `cause` is kept for logs and never sent.
 */
export class DomainError extends Error {
  readonly kind: ErrorKind;

  constructor(kind: ErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DomainError";
    this.kind = kind;
  }

  static invalid(message: string, cause?: unknown): DomainError {
    return new DomainError("invalid", message, withCause(cause));
  }

  static unauthenticated(message: string, cause?: unknown): DomainError {
    return new DomainError("unauthenticated", message, withCause(cause));
  }

  static forbidden(message: string): DomainError {
    return new DomainError("forbidden", message);
  }

  static notFound(message: string): DomainError {
    return new DomainError("not-found", message);
  }

  static conflict(message: string): DomainError {
    return new DomainError("conflict", message);
  }

  static tooLarge(message: string): DomainError {
    return new DomainError("too-large", message);
  }

  static unsupportedFormat(message: string): DomainError {
    return new DomainError("unsupported-format", message);
  }

  static misdirected(message: string): DomainError {
    return new DomainError("misdirected", message);
  }

  static unavailable(message: string, cause?: unknown): DomainError {
    return new DomainError("unavailable", message, { cause });
  }
}

function withCause(cause: unknown): { cause?: unknown } | undefined {
  return cause === undefined ? undefined : { cause };
}
