/**
 * Identity: the OAuth2 token endpoint, Admin SDK Directory users (list, get) and the Marketplace
 * licence of our app (appsmarket v2 customerLicense).
 */
import { SCOPES } from "../auth";
import type { WorkspaceEmulator } from "../emulator";
import type { Principal } from "../principal";
import { GoogleApiError, RESPONDED, badRequest, intParam, sendJson } from "../http";
import type { Customer, DirectoryUser } from "./store";

/** Our app's Marketplace application id (the GCP project number of the listing). */
export const MARKETPLACE_APPLICATION_ID = "104857600";

const DIRECTORY_READ = [SCOPES.directoryUser, SCOPES.directoryUserReadonly];

function notAuthorized(): GoogleApiError {
  return new GoogleApiError(403, "Not Authorized to access this resource/api", "forbidden");
}

function etag(value: string): string {
  return `"${Buffer.from(value).toString("base64url").slice(0, 27)}"`;
}

export function directoryUserJson(user: DirectoryUser, view: "admin_view" | "domain_public"): unknown {
  const fullName = `${user.givenName} ${user.familyName}`.trim();
  const common = {
    kind: "admin#directory#user",
    id: user.id,
    etag: etag(`${user.id}:${user.primaryEmail}:${String(user.suspended)}`),
    primaryEmail: user.primaryEmail,
    name: { givenName: user.givenName, familyName: user.familyName, fullName },
    emails: [{ address: user.primaryEmail, primary: true }],
    ...(user.thumbnailPhotoUrl ? { thumbnailPhotoUrl: user.thumbnailPhotoUrl } : {}),
  };
  if (view === "domain_public") return common;
  return {
    ...common,
    isAdmin: user.isAdmin,
    isDelegatedAdmin: user.isDelegatedAdmin,
    lastLoginTime: user.lastLoginTime,
    creationTime: user.creationTime,
    agreedToTerms: true,
    suspended: user.suspended,
    ...(user.suspended ? { suspensionReason: "ADMIN" } : {}),
    archived: user.archived,
    changePasswordAtNextLogin: false,
    ipWhitelisted: false,
    ...(user.aliases.length > 0 ? { aliases: user.aliases, nonEditableAliases: [] } : {}),
    customerId: user.customerId,
    orgUnitPath: user.orgUnitPath,
    isMailboxSetup: user.gmailEnabled,
    isEnrolledIn2Sv: false,
    isEnforcedIn2Sv: false,
    includeInGlobalAddressList: true,
  };
}

/** The admin behind a delegated token, and the customer they administer. */
function adminCustomer(
  emulator: WorkspaceEmulator,
  principal: Principal,
): { admin: DirectoryUser; customer: Customer } {
  const admin = principal.user;
  if (!admin || !admin.isAdmin) throw notAuthorized();
  const customer = emulator.directory.customer(admin.customerId);
  if (!customer) throw notAuthorized();
  return { admin, customer };
}

export function registerDirectoryApi(emulator: WorkspaceEmulator): void {
  const { router, directory } = emulator;

  for (const path of ["/token", "/oauth2/v4/token"]) {
    router.add({
      method: "POST",
      path,
      id: "oauth2.token",
      handler: async (context) => {
        const form = new URLSearchParams((await context.body()).toString("utf8"));
        const { status, body } = emulator.oauth.exchange(form);
        sendJson(context.response, status, body, { "cache-control": "no-cache, no-store, max-age=0" });
        return RESPONDED;
      },
    });
  }

  router.add({
    method: "GET",
    path: "/admin/directory/v1/users",
    id: "directory.users.list",
    scopes: DIRECTORY_READ,
    handler: (context, principal) => {
      const { customer } = adminCustomer(emulator, principal);
      const customerParam = context.query.get("customer");
      const domainParam = context.query.get("domain");
      if (!customerParam && !domainParam) throw badRequest("Bad Request");
      if (customerParam && customerParam !== "my_customer" && customerParam !== customer.id)
        throw notAuthorized();
      if (domainParam && domainParam.toLowerCase() !== customer.domain) throw notAuthorized();
      const maxResults = intParam(context.query, "maxResults", { default: 100, min: 1, max: 500 });
      const view = context.query.get("viewType") === "domain_public" ? "domain_public" : "admin_view";
      const all = directory.usersOf(customer.id);
      const start = decodePageToken(context.query.get("pageToken"), all.length);
      const page = all.slice(start, start + maxResults);
      const next = start + maxResults < all.length ? encodePageToken(start + maxResults) : undefined;
      return {
        kind: "admin#directory#users",
        etag: etag(`${customer.id}:${all.length}:${start}`),
        users: page.map((user) => directoryUserJson(user, view)),
        ...(next ? { nextPageToken: next } : {}),
      };
    },
  });

  router.add({
    method: "GET",
    path: "/admin/directory/v1/users/:userKey",
    id: "directory.users.get",
    scopes: DIRECTORY_READ,
    handler: (context, principal) => {
      const caller = principal.user;
      if (!caller) throw notAuthorized();
      const view = context.query.get("viewType") === "domain_public" ? "domain_public" : "admin_view";
      const user = directory.user(context.params.userKey as string);
      if (view === "admin_view" && !caller.isAdmin) throw notAuthorized();
      if (!user || user.customerId !== caller.customerId) {
        if (!user && caller.isAdmin) {
          throw new GoogleApiError(404, "Resource Not Found: userKey", "notFound");
        }
        throw notAuthorized();
      }
      return directoryUserJson(user, view);
    },
  });

  router.add({
    method: "GET",
    path: "/appsmarket/v2/customerLicense/:applicationId/:customerId",
    id: "marketplace.customerLicense.get",
    scopes: [SCOPES.marketplaceLicense],
    handler: (context) => {
      const { applicationId, customerId } = context.params as { applicationId: string; customerId: string };
      const customer = directory.customer(customerId);
      if (applicationId !== MARKETPLACE_APPLICATION_ID || !customer) {
        throw new GoogleApiError(404, "Not Found", "notFound");
      }
      return {
        kind: "appsmarket#customerLicense",
        state: customer.licenseState,
        applicationId,
        customerId: customer.domain,
        id: `${applicationId}-${customer.id}`,
        editions: customer.licenseState === "ACTIVE" ? [{ editionId: "default_edition", seatCount: 0 }] : [],
      };
    },
  });
}

/** Page tokens are opaque to clients; ours carry an offset and refuse anything that does not decode. */
export function encodePageToken(offset: number): string {
  return Buffer.from(`o:${offset}`).toString("base64url");
}

export function decodePageToken(token: string | null, length: number): number {
  if (!token) return 0;
  const match = /^o:(\d+)$/.exec(Buffer.from(token, "base64url").toString("utf8"));
  const offset = match ? Number(match[1]) : NaN;
  if (!Number.isInteger(offset) || offset < 0 || offset > length) {
    throw new GoogleApiError(400, "Invalid page token.", "invalid");
  }
  return offset;
}
