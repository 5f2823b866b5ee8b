/**
 * What every Drive route needs: the caller as Drive sees them, the files they can reach, Google's paging
 * tokens, `fields` defaults and the checks of request values.
 */
import { SCOPES } from "../auth";
import type { DirectoryUser } from "../directory/store";
import type { WorkspaceEmulator } from "../emulator";
import type { Principal } from "../principal";
import { applyFields, boolParam, type RequestContext, type RouteSpec } from "../http";
import {
  domainPolicy,
  fileNotFound,
  insufficientAdministratorPrivileges,
  insufficientFilePermissions,
  invalidValue,
} from "./errors";
import type { RenderContext } from "./resources";
import { type DriveStore } from "./store";
import { ROLE_RANK, type Access, type DrivePerson, type Role, type StoredFile } from "./store-model";

export const READ_SCOPES = [
  SCOPES.drive,
  SCOPES.driveReadonly,
  SCOPES.driveFile,
  SCOPES.driveMetadataReadonly,
];
export const CONTENT_SCOPES = [SCOPES.drive, SCOPES.driveReadonly, SCOPES.driveFile];
export const WRITE_SCOPES = [SCOPES.drive, SCOPES.driveFile];

/** What the Drive route files share: the store, the caller, rendering and route registration. */
export interface DriveRoutes {
  emulator: WorkspaceEmulator;
  store: DriveStore;
  /** Registers a Drive route (its answer waits for checksums still being computed). */
  add(spec: RouteSpec<Principal>): void;
  render(viewer: DrivePerson): RenderContext;
  /** The caller as Drive sees them (403 `domainPolicy` when their domain turned Drive apps off). */
  caller(principal: Principal): DrivePerson;
}

export function personOf(user: DirectoryUser): DrivePerson {
  return {
    id: user.id,
    email: user.primaryEmail,
    displayName: `${user.givenName} ${user.familyName}`.trim(),
    domain: user.primaryEmail.split("@")[1] ?? "",
    customerId: user.customerId,
  };
}

/**
 * The caller: the impersonated user, or the service account itself (it owns nothing). Users of a domain
 * whose administrators turned Drive apps off are refused here, for every Drive call (403 `domainPolicy`).
 */
export function callerOf(store: DriveStore, principal: Principal): DrivePerson {
  if (principal.user) {
    const person = personOf(principal.user);
    if (store.driveAppsDisabled(person.domain)) throw domainPolicy();
    return person;
  }
  const email = principal.token.clientEmail;
  return { id: email, email, displayName: email, domain: email.split("@")[1] ?? "", customerId: "" };
}

export function allDrivesFlag(query: URLSearchParams): boolean {
  return boolParam(query, "supportsAllDrives") || boolParam(query, "supportsTeamDrives");
}

export function hasContentScope(principal: Principal): boolean {
  return CONTENT_SCOPES.some((scope) => principal.token.scopes.includes(scope));
}

/**
 * `useDomainAdminAccess=true`: true for a super admin, 403 for anyone else. It grants access only where
 * Google documents it (shared drives and their permissions), never to files.
 */
export function domainAdminAccess(query: URLSearchParams, principal: Principal): boolean {
  if (!boolParam(query, "useDomainAdminAccess")) return false;
  if (!principal.user?.isAdmin) throw insufficientAdministratorPrivileges();
  return true;
}

export function csv(value: string | null): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

export function encodeOffsetToken(offset: number, key: string): string {
  return Buffer.from(JSON.stringify({ o: offset, k: key })).toString("base64url");
}

export function decodeOffsetToken(token: string | null, key: string): number {
  if (!token) return 0;
  try {
    const parsed = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as {
      o?: unknown;
      k?: unknown;
    };
    if (typeof parsed.o === "number" && Number.isInteger(parsed.o) && parsed.o >= 0 && parsed.k === key)
      return parsed.o;
  } catch {
    // falls through to the error
  }
  throw invalidValue("pageToken");
}

/** Drive's default partial response when the request names no `fields`. */
export function defaultFields(context: RequestContext, value: unknown, fields: string): unknown {
  return context.query.get("fields") ? value : applyFields(value, fields);
}

export function stringMap(value: unknown, name: string): Record<string, string | null> | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw invalidValue(name);
  const out: Record<string, string | null> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (item !== null && typeof item !== "string") throw invalidValue(name);
    out[key] = item as string | null;
  }
  return out;
}

export function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalidValue(key);
  return value;
}

export function optionalBool(body: Record<string, unknown>, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw invalidValue(key);
  return value;
}

/** A file the caller can see, or Google's 404 (shared-drive files need supportsAllDrives). */
export function visibleFile(
  store: DriveStore,
  fileId: string,
  viewer: DrivePerson,
  query: URLSearchParams,
): { file: StoredFile; access: Access } {
  const file = store.file(fileId);
  const access = file ? store.access(file, viewer) : undefined;
  if (!file || !access || (file.driveId && !allDrivesFlag(query))) throw fileNotFound(fileId);
  return { file, access };
}

export function requireRole(access: Access, role: Role): void {
  if (ROLE_RANK[access.role] < ROLE_RANK[role]) throw insufficientFilePermissions();
}
