/**
 * What every Gmail route needs: Gmail's scopes and limits, the mailbox owner a call names, paging tokens
 * and the checks of request values.
 */
import { SCOPES } from "../auth";
import type { DirectoryUser } from "../directory/store";
import type { WorkspaceEmulator } from "../emulator";
import type { Principal } from "../principal";
import {
  GoogleApiError,
  badRequest,
  forbidden,
  invalidArgument,
  type Handler,
  type RequestContext,
} from "../http";
import { type GmailStore } from "./store";
import { type StoredMessage } from "./store-model";
const GMAIL_COMPOSE = "https://www.googleapis.com/auth/gmail.compose";
export const READ = [SCOPES.mail, SCOPES.gmailModify, SCOPES.gmailReadonly, SCOPES.gmailMetadata];
export const READ_CONTENT = [SCOPES.mail, SCOPES.gmailModify, SCOPES.gmailReadonly];
export const PROFILE = [...READ, GMAIL_COMPOSE];
export const LABELS_READ = [...READ, SCOPES.gmailLabels];
export const LABELS_WRITE = [SCOPES.mail, SCOPES.gmailModify, SCOPES.gmailLabels];
export const INSERT = [SCOPES.mail, SCOPES.gmailModify, SCOPES.gmailInsert];
export const MODIFY = [SCOPES.mail, SCOPES.gmailModify];
export const DELETE = [SCOPES.mail];

/** Gmail's limit for one message (import, insert, upload): 150 MB (the discovery document's 157286400). */
export const MAX_MESSAGE_BYTES = 150 * 1024 * 1024;
/**
 * The largest body a Gmail request that is not an upload may carry (JSON `raw` included). Google does not
 * document it; Gmail has answered 400 "Request payload size exceeds the limit: 1048576 bytes." above it.
 * Larger messages go through the `/upload` URI.
 */
export const MAX_JSON_PAYLOAD_BYTES = 1024 * 1024;
/** An upload body may carry the message base64-encoded in a multipart part: a third larger, plus headers. */
const MAX_UPLOAD_BODY_BYTES = Math.ceil((MAX_MESSAGE_BYTES * 4) / 3) + 1024 * 1024;
export const BASE = "/gmail/v1/users/:userId";
export const ATTACHMENT_PREFIX = "ANGjdJ";

/**
 * The mailbox owner `userId` names: `me`, or the impersonated user's address or id; anyone else is 403. A
 * user without Gmail (Drive-only licence, Gmail off for their org unit) is 400 "Mail service not enabled".
 */
function mailboxUser(context: RequestContext, principal: Principal): DirectoryUser {
  const user = principal.user;
  if (!user) {
    throw new GoogleApiError(400, "Precondition check failed.", "failedPrecondition", {
      status: "FAILED_PRECONDITION",
    });
  }
  const key = (context.params.userId ?? "").toLowerCase();
  if (key !== "me" && key !== user.primaryEmail && key !== user.id && !user.aliases.includes(key)) {
    throw forbidden(`Delegation denied for ${user.primaryEmail}`);
  }
  if (!user.gmailEnabled) throw mailServiceNotEnabled();
  return user;
}

export function mailServiceNotEnabled(): GoogleApiError {
  return new GoogleApiError(400, "Mail service not enabled", "failedPrecondition", {
    status: "FAILED_PRECONDITION",
  });
}

function payloadTooLarge(): GoogleApiError {
  return badRequest(`Request payload size exceeds the limit: ${MAX_JSON_PAYLOAD_BYTES} bytes.`);
}

/** A token with gmail.metadata and no scope that reads content. */
export function metadataOnly(principal: Principal): boolean {
  const scopes = principal.token.scopes;
  return scopes.includes(SCOPES.gmailMetadata) && !READ_CONTENT.some((scope) => scopes.includes(scope));
}

/** A repeated query parameter (`a=1&a=2`, or `a=1,2`). */
export function listParam(context: RequestContext, name: string): string[] {
  return context.query
    .getAll(name)
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter(Boolean);
}

export function stringList(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw invalidArgument(`Invalid value for ${name}`);
  }
  return value as string[];
}

export function withLabels(message: StoredMessage): Record<string, unknown> {
  return {
    id: message.id,
    threadId: message.threadId,
    ...(message.labelIds.size > 0 ? { labelIds: [...message.labelIds] } : {}),
  };
}

export function encodeToken(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

export function decodeToken<T>(token: string, check: (value: unknown) => value is T): T {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
    if (check(value)) return value;
  } catch {
    // answered below
  }
  throw badRequest("Invalid pageToken", "invalidArgument");
}

export const isListCursor = (value: unknown): value is [number, string] =>
  Array.isArray(value) && typeof value[0] === "number" && typeof value[1] === "string";
export const isHistoryCursor = (value: unknown): value is number => typeof value === "number";

export function messageTooLarge(): GoogleApiError {
  return new GoogleApiError(
    413,
    `Media larger than the maximum allowed size of ${MAX_MESSAGE_BYTES} bytes.`,
    "uploadTooLarge",
  );
}

export function decodeRaw(raw: string): Buffer {
  if (!/^[A-Za-z0-9+/_=\s-]*$/.test(raw)) throw invalidArgument("Invalid raw message");
  return Buffer.from(raw, "base64");
}

/** What the Gmail route files share: the emulator, its Gmail store, and `route` to register a Gmail call. */
export interface GmailRoutes {
  emulator: WorkspaceEmulator;
  store: GmailStore;
  /**
   * Registers a Gmail call: its body limit (an upload's, or the JSON payload's), then the mailbox owner
   * `userId` names, passed to the handler.
   */
  route(
    method: string,
    path: string,
    id: string,
    scopes: readonly string[],
    handler: (context: RequestContext, user: DirectoryUser, principal: Principal) => unknown,
  ): void;
}

export function gmailRoutes(emulator: WorkspaceEmulator): GmailRoutes {
  const store = emulator.gmail;
  const route = (
    method: string,
    path: string,
    id: string,
    scopes: readonly string[],
    handler: (context: RequestContext, user: DirectoryUser, principal: Principal) => unknown,
  ): void => {
    const upload = path.startsWith("/upload/");
    const wrapped: Handler<Principal> = (context, principal) => {
      context.bodyLimit = upload
        ? { maxBytes: MAX_UPLOAD_BODY_BYTES, tooLarge: messageTooLarge }
        : { maxBytes: MAX_JSON_PAYLOAD_BYTES, tooLarge: payloadTooLarge };
      return handler(context, mailboxUser(context, principal), principal);
    };
    emulator.router.add({ method, path, id, scopes, handler: wrapped });
  };
  return { emulator, store, route };
}
