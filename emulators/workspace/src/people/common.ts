/**
 * What every People route needs: the scopes of each method (the reference's "Authorization scopes"), the
 * user whose contacts a call reads (the impersonated user), People's error shape, paging parameters and
 * the extra fixed quota of a full sync's first page.
 */
import { SCOPES } from "../auth";
import type { DirectoryUser } from "../directory/store";
import type { WorkspaceEmulator } from "../emulator";
import type { RequestContext } from "../http";
import type { Principal } from "../principal";
import { Bucket } from "../quota-clock";
import { peopleError, renderPeopleError } from "./errors";

export const CONTACTS_READ = [SCOPES.contacts, SCOPES.contactsReadonly];
export const CONTACTS_WRITE = [SCOPES.contacts];
export const OTHER_CONTACTS_READ = [SCOPES.contactsOtherReadonly];

export type PeopleHandler = (context: RequestContext, user: DirectoryUser) => unknown;

export interface PeopleRoutes {
  emulator: WorkspaceEmulator;
  /** Registers a People route: Google's method id, its gRPC method (error details) and its scopes. */
  route(
    method: string,
    path: string,
    id: string,
    rpc: string,
    scopes: string[],
    handler: PeopleHandler,
  ): void;
  /** Charges the fixed quota of a full sync's first page, or answers Google's 429. */
  chargeFirstPage(user: DirectoryUser): void;
}

export function peopleRoutes(emulator: WorkspaceEmulator): PeopleRoutes {
  const firstPages = new Map<string, Bucket>();
  return {
    emulator,
    route(method, path, id, rpc, scopes, handler) {
      emulator.router.add({
        method,
        path,
        id,
        scopes,
        renderError: renderPeopleError(id, rpc),
        handler: (context: RequestContext, principal: Principal) => {
          if (!principal.user) throw peopleError(400, "Precondition check failed.", "FAILED_PRECONDITION");
          return handler(context, principal.user);
        },
      });
    },
    chargeFirstPage(user) {
      const capacity = emulator.people.settings.fullSyncFirstPagesPerMinute;
      const now = emulator.quota.quotaNow();
      const key = `${user.id}|${capacity}`;
      let bucket = firstPages.get(key);
      if (!bucket) firstPages.set(key, (bucket = new Bucket(capacity, now)));
      if (emulator.quota.settings.enabled && bucket.waitFor(1, now) > 0) {
        // The fixed quota is not a Cloud quota: Google answers the bare RESOURCE_EXHAUSTED.
        throw peopleError(429, "Resource has been exhausted (e.g. check quota).", "RESOURCE_EXHAUSTED", [
          {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            violations: [{ subject: "QUOTA_EXCEEDED", description: "Full sync first page quota exceeded" }],
          },
        ]);
      }
      bucket.take(1);
    },
  };
}

/** `pageSize`: 1 to `max`, 0 or absent the default; out of range is 400 as Google answers it. */
export function pageSize(context: RequestContext, fallback: number, max: number): number {
  const raw = context.query.get("pageSize");
  if (raw === null || raw === "" || raw === "0") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw peopleError(400, `Invalid pageSize: must be between 1 and ${max}.`);
  }
  return value;
}

export function boolQuery(context: RequestContext, name: string): boolean {
  const raw = context.query.get(name);
  if (raw === null || raw === "" || raw === "false") return false;
  if (raw === "true") return true;
  throw peopleError(400, `Invalid value at '${name}' (TYPE_BOOL), "${raw}"`);
}

/** A resource name `people/c<id>` → the id, or Google's 400. */
export function contactId(resourceName: string, prefix = "people"): string {
  const match = new RegExp(`^${prefix}/c(\\d+)$`).exec(resourceName);
  if (!match) throw peopleError(400, `Resource name "${resourceName}" is not valid.`);
  return match[1] as string;
}
