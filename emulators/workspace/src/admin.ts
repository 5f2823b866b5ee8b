/**
 * The emulator-only admin API under `/emulator/v1`: the service-account key, quota settings (per project)
 * and statistics, the latency model, faults, and state changes for tests (install or uninstall the app,
 * revoke scopes, add, suspend, rename or delete users, turn a user's Gmail off). Gmail and Drive add their
 * own state changes beside their routes. No token is needed: it exists only on the emulator.
 */
import { DEFAULT_GRANTED_SCOPES } from "./auth";
import type { WorkspaceEmulator } from "./emulator";
import type { FaultRuleInput } from "./faults";
import { GoogleApiError, badRequest, type RequestContext } from "./http";
import type { LatencySettingsChange } from "./latency";
import type { QuotaSettingsChange } from "./quota-models";
import type { DirectoryUser } from "./directory/store";

export const ADMIN_PREFIX = "/emulator/v1";

function stringArray(value: unknown, name: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw badRequest(`${name} must be an array of strings`);
  }
  return value as string[];
}

function optional<T>(
  body: Record<string, unknown>,
  key: string,
  type: "string" | "boolean" | "number",
): T | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== type) throw badRequest(`${key} must be a ${type}`);
  return value as T;
}

/** The user named in the path (email or id), or 404. */
export function pathUser(emulator: WorkspaceEmulator, context: RequestContext): DirectoryUser {
  const user = emulator.directory.user(context.params.user ?? "");
  if (!user) throw new GoogleApiError(404, `No user ${context.params.user ?? ""}`, "notFound");
  return user;
}

type AdminHandler = (context: RequestContext) => unknown;

/** Registers an admin route under `/emulator/v1` (no token; the method id is `emulator<path>`). */
function adminRoutes(
  emulator: WorkspaceEmulator,
): (method: string, path: string, handler: AdminHandler) => void {
  return (method, path, handler) =>
    emulator.router.add({ method, path: `${ADMIN_PREFIX}${path}`, id: `emulator${path}`, handler });
}

/** The service account, call statistics, quota and latency settings, and fault rules. */
function registerServiceAdmin(emulator: WorkspaceEmulator): void {
  const add = adminRoutes(emulator);

  add("GET", "/service-account", () => emulator.oauth.serviceAccount);

  add("GET", "/stats", () => emulator.quota.report());
  add("POST", "/stats:reset", () => {
    emulator.quota.reset();
    return emulator.quota.report();
  });

  add("GET", "/quota", () => emulator.quota.settings);
  // {enabled?, model?, timeScale?, gmailUserLimit?, projects?: {<project id>: {model?, dailyUnits?,
  // driveEgressBytesPerDay?} | null}}: `model` is the default of projects without their own.
  add("PATCH", "/quota", async (context) => {
    const body = await context.json();
    const change: QuotaSettingsChange = {};
    const enabled = optional<boolean>(body, "enabled", "boolean");
    if (enabled !== undefined) change.enabled = enabled;
    const model = optional<string>(body, "model", "string");
    if (model !== undefined) change.model = model as QuotaSettingsChange["model"];
    const timeScale = optional<number>(body, "timeScale", "number");
    if (timeScale !== undefined) change.timeScale = timeScale;
    const userLimit = optional<string>(body, "gmailUserLimit", "string");
    if (userLimit !== undefined) change.gmailUserLimit = userLimit as QuotaSettingsChange["gmailUserLimit"];
    if (body.projects !== undefined) {
      if (typeof body.projects !== "object" || body.projects === null || Array.isArray(body.projects)) {
        throw badRequest("projects must be an object of project ids");
      }
      change.projects = body.projects as QuotaSettingsChange["projects"];
    }
    try {
      emulator.quota.configure(change);
    } catch (error) {
      throw badRequest(error instanceof Error ? error.message : String(error));
    }
    return emulator.quota.settings;
  });

  // The latency model: its settings and every method's parameters.
  add("GET", "/latency", () => emulator.latency.describe());
  // {enabled?, scale?, seed?, methods?: {<method id, api.* or *>: {medianMs?, sigma?, perMiBMs?,
  // downloadBytesPerSecond?, uploadBytesPerSecond?} | null}}
  add("PATCH", "/latency", async (context) => {
    try {
      emulator.latency.configure((await context.json()) as LatencySettingsChange);
    } catch (error) {
      throw badRequest(error instanceof Error ? error.message : String(error));
    }
    return emulator.latency.describe();
  });

  add("GET", "/faults", () => ({ faults: emulator.faults.list() }));
  add("POST", "/faults", async (context) => {
    try {
      return emulator.faults.add((await context.json()) as FaultRuleInput);
    } catch (error) {
      if (error instanceof GoogleApiError) throw error;
      throw badRequest(error instanceof Error ? error.message : String(error));
    }
  });
  add("DELETE", "/faults", () => {
    emulator.faults.clear();
    return undefined;
  });
  // A hold rule's parked calls: answers once at least `count` (default 1) are parked, 408 after `withinMs`.
  add("GET", "/faults/:id/held", async (context) => {
    const id = context.params.id ?? "";
    if (!emulator.faults.list().some((rule) => rule.id === id))
      throw new GoogleApiError(404, "No such fault", "notFound");
    const count = Number(context.query.get("count") ?? "1");
    const withinMs = Number(context.query.get("withinMs") ?? "30000");
    if (!Number.isInteger(count) || count < 1) throw badRequest("count must be a positive integer");
    if (!Number.isInteger(withinMs) || withinMs < 0 || withinMs > 120_000)
      throw badRequest("withinMs must be between 0 and 120000");
    const held = await emulator.faults.held(id, count, withinMs);
    if (held === undefined) throw new GoogleApiError(408, `Fewer than ${count} calls held`, "timeout");
    return { held };
  });
  add("DELETE", "/faults/:id", (context) => {
    if (!emulator.faults.remove(context.params.id ?? ""))
      throw new GoogleApiError(404, "No such fault", "notFound");
    return undefined;
  });
}

/** Customers (the app's installation, granted scopes) and users. */
function registerDirectoryAdmin(emulator: WorkspaceEmulator): void {
  const add = adminRoutes(emulator);
  const { directory } = emulator;

  add("GET", "/customers", () => ({ customers: directory.listCustomers() }));
  add("POST", "/customers", async (context) => {
    const body = await context.json();
    const domain = optional<string>(body, "domain", "string");
    if (!domain || !/^[a-z0-9.-]+\.[a-z]{2,}$/i.test(domain)) throw badRequest("domain is required");
    if (directory.customer(domain)) throw new GoogleApiError(409, `Customer ${domain} exists`, "duplicate");
    const installed = optional<boolean>(body, "installed", "boolean") ?? false;
    return directory.addCustomer({
      domain,
      installed,
      scopes: stringArray(body.scopes, "scopes") ?? DEFAULT_GRANTED_SCOPES,
    });
  });
  // Installing grants the scopes (domain-wide delegation) and activates the licence; uninstalling
  // withdraws both and revokes the tokens already handed out.
  add("POST", "/customers/:customer/app:install", async (context) => {
    const customer = directory.customer(context.params.customer ?? "");
    if (!customer) throw new GoogleApiError(404, "No such customer", "notFound");
    const scopes = stringArray((await context.json()).scopes, "scopes") ?? DEFAULT_GRANTED_SCOPES;
    customer.grantedScopes = [...scopes];
    customer.licenseState = "ACTIVE";
    return customer;
  });
  add("POST", "/customers/:customer/app:uninstall", (context) => {
    const customer = directory.customer(context.params.customer ?? "");
    if (!customer) throw new GoogleApiError(404, "No such customer", "notFound");
    customer.grantedScopes = [];
    customer.licenseState = "UNLICENSED";
    emulator.oauth.revoke((info) => !!info.userId && directory.user(info.userId)?.customerId === customer.id);
    return customer;
  });
  add("POST", "/customers/:customer/scopes:revoke", async (context) => {
    const customer = directory.customer(context.params.customer ?? "");
    if (!customer) throw new GoogleApiError(404, "No such customer", "notFound");
    const scopes = stringArray((await context.json()).scopes, "scopes");
    if (!scopes || scopes.length === 0) throw badRequest("scopes is required");
    customer.grantedScopes = customer.grantedScopes.filter((scope) => !scopes.includes(scope));
    return customer;
  });

  add("POST", "/users", async (context) => {
    const body = await context.json();
    const email = optional<string>(body, "email", "string");
    if (!email || !email.includes("@")) throw badRequest("email is required");
    try {
      return directory.addUser({
        email,
        givenName: optional<string>(body, "givenName", "string") ?? email.split("@")[0] ?? "",
        familyName: optional<string>(body, "familyName", "string") ?? "",
        isAdmin: optional<boolean>(body, "isAdmin", "boolean"),
        suspended: optional<boolean>(body, "suspended", "boolean"),
        gmailEnabled: optional<boolean>(body, "gmailEnabled", "boolean"),
      });
    } catch (error) {
      throw badRequest(error instanceof Error ? error.message : String(error));
    }
  });
  /** A user as the Directory holds them; `id` is also the `sub` of their Google sign-in, as at Google. */
  add("GET", "/users/:user", (context) => pathUser(emulator, context));
  add("PATCH", "/users/:user", async (context) => {
    const user = pathUser(emulator, context);
    const body = await context.json();
    const suspended = optional<boolean>(body, "suspended", "boolean");
    const isAdmin = optional<boolean>(body, "isAdmin", "boolean");
    const givenName = optional<string>(body, "givenName", "string");
    const familyName = optional<string>(body, "familyName", "string");
    const primaryEmail = optional<string>(body, "primaryEmail", "string");
    const gmailEnabled = optional<boolean>(body, "gmailEnabled", "boolean");
    if (primaryEmail !== undefined && primaryEmail.toLowerCase() !== user.primaryEmail) {
      const target = directory.customerOfEmail(primaryEmail);
      if (!target || target.id !== user.customerId)
        throw badRequest("A rename stays within the customer's domain");
      try {
        directory.rename(user, primaryEmail);
      } catch (error) {
        throw badRequest(error instanceof Error ? error.message : String(error));
      }
    }
    if (suspended !== undefined) user.suspended = suspended;
    if (isAdmin !== undefined) user.isAdmin = isAdmin;
    if (givenName !== undefined) user.givenName = givenName;
    if (familyName !== undefined) user.familyName = familyName;
    // Gmail off (a Drive-only licence, or Gmail turned off for the user's org unit) keeps the mailbox;
    // Gmail on again makes it reachable again.
    if (gmailEnabled !== undefined) user.gmailEnabled = gmailEnabled;
    if (user.suspended) emulator.oauth.revoke((info) => info.userId === user.id);
    return user;
  });
  add("DELETE", "/users/:user", (context) => {
    emulator.deleteUser(pathUser(emulator, context));
    return undefined;
  });
}

export function registerAdminApi(emulator: WorkspaceEmulator): void {
  registerServiceAdmin(emulator);
  registerDirectoryAdmin(emulator);
}
