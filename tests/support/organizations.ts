/**
 * A fresh Workspace customer in the stack's Workspace emulator for each test that needs one, so API tests
 * never share an organisation: its admin and users signed in with Google through the Auth emulator.
 */
import { randomBytes } from "node:crypto";
import { deleteApp, initializeApp } from "firebase-admin/app";
import { getFirestore, type Firestore } from "firebase-admin/firestore";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { stackEnv } from "./stack-env";
import { callApi, appCheckToken, type ApiAnswer } from "./api-client";
import { signInWithGoogle } from "./auth-emulator";
import type { ApiHost } from "./regions";
import { workspaceAdmin } from "./workspace";

export interface TestWorkspace {
  domain: string;
  admin: string;
  user: string;
  suspended: string;
}

/** Creates `<random>.test` with an admin, a user, a suspended user and one shared drive. */
export async function newWorkspace(options: {
  installed: boolean;
  sharedDrives?: string[];
}): Promise<TestWorkspace> {
  const domain = `org-${randomBytes(4).toString("hex")}.test`;
  const created = await workspaceAdmin("POST", "/customers", { domain, installed: options.installed });
  if (created.status !== 200) throw new Error(`Creating ${domain} failed: ${JSON.stringify(created.body)}`);
  const workspace = {
    domain,
    admin: `admin@${domain}`,
    user: `user@${domain}`,
    suspended: `former@${domain}`,
  };
  await workspaceAdmin("POST", "/users", {
    email: workspace.admin,
    givenName: "Ada",
    familyName: "Admin",
    isAdmin: true,
  });
  await workspaceAdmin("POST", "/users", { email: workspace.user, givenName: "Ueli", familyName: "User" });
  await workspaceAdmin("POST", "/users", {
    email: workspace.suspended,
    givenName: "Fritz",
    familyName: "Former",
    suspended: true,
  });
  for (const name of options.sharedDrives ?? ["Finance"]) {
    await workspaceAdmin("POST", `/users/${workspace.admin}/drive/drives`, { name });
  }
  return workspace;
}

/**
 * The Google account id (`sub`) with which `email` signs in: a Workspace user's is their Directory id, as
 * at Google; an address the Workspace emulator does not know (a consumer account) gets one of its own.
 */
export async function googleSubOf(email: string): Promise<string> {
  const user = await workspaceAdmin<{ id?: string }>("GET", `/users/${encodeURIComponent(email)}`);
  return user.status === 200 && typeof user.body.id === "string" ? user.body.id : `sub-${email}`;
}

/** Signs `email` in with Google and returns a caller of the API as that account. */
export async function asUser(email: string): Promise<ApiCaller> {
  const user = await signInWithGoogle({ sub: await googleSubOf(email), email, name: email.split("@")[0] });
  return withIdToken(user.idToken);
}

/** `host`: the API to call, when not the one the web would (see regions.ts). */
export type ApiCaller = (
  path: string,
  init?: { method?: string; body?: unknown; host?: ApiHost },
) => Promise<ApiAnswer>;

/** A caller of the API with this Firebase ID token (and a valid App Check token), whoever it belongs to. */
export function withIdToken(idToken: string): ApiCaller {
  return (path, init = {}) =>
    callApi(path, {
      idToken,
      appCheck: appCheckToken(),
      method: init.method ?? "GET",
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      headers: init.body === undefined ? {} : { "content-type": "application/json" },
      ...(init.host ? { host: init.host } : {}),
    });
}

/** A fresh Workspace, its admin signed in, and its organisation set up in `regionId` (free plan). */
export async function onboarded(regionId = "ch"): Promise<{
  workspace: TestWorkspace;
  call: ApiCaller;
  organization: OrganizationSummary;
}> {
  const workspace = await newWorkspace({ installed: true, sharedDrives: ["Finance", "Marketing"] });
  const call = await asUser(workspace.admin);
  const created = await call("/organizations", { method: "POST", body: { regionId } });
  if (created.status !== 201) throw new Error(`Set-up failed: ${JSON.stringify(created.body)}`);
  return { workspace, call, organization: created.body as OrganizationSummary };
}

/**
 * Runs `body` with the stack's Firestore database of a region ("region-ch"...) or "(default)", through
 * firebase-admin, for arranging state a test cannot reach through the API (a paid plan before payments
 * exist in the test, an old sync date).
 */
export async function withRegionDb<T>(databaseId: string, body: (db: Firestore) => Promise<T>): Promise<T> {
  const app = initializeApp({ projectId: stackEnv.projectId }, `test-${randomBytes(6).toString("hex")}`);
  try {
    return await body(getFirestore(app, databaseId));
  } finally {
    await deleteApp(app);
  }
}

/** Sets an organisation's account state (plan, seats, storage packs...) directly in its region database. */
export async function setAccount(
  organization: OrganizationSummary,
  account: Partial<{
    planId: "matterhorn" | "geneva" | "zurich";
    seats: number;
    storagePacks: number;
    autoAddStorage: boolean;
    autoAddSeats: boolean;
    /** A seat overage as a sync records it. */
    seatOverage: { since: string | null; unseated: { resourceId: string; email: string | null }[] };
    /** The graceful period after a failed payment (none, started or stopped). */
    graceful: {
      state: "none" | "started" | "stopped";
      startedAt: string | null;
      stopsAt: string | null;
    };
  }>,
): Promise<void> {
  const regionId = organization.subscriptions[0]?.region.id ?? "ch";
  await withRegionDb(`region-${regionId}`, async (db) => {
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(account)) fields[`account.${key}`] = value;
    await db.collection("organizations").doc(organization.organizationId).update(fields);
  });
}
