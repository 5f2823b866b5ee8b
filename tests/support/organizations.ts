/**
 * A fresh Workspace customer in the stack's Workspace emulator for each test that needs one, so API tests
 * never share an organisation: its admin and users signed in with Google through the Auth emulator.
 */
import { randomBytes } from "node:crypto";
import { callApi, appCheckToken, type ApiAnswer } from "./api-client";
import { signInWithGoogle } from "./auth-emulator";
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

/** Signs `email` in with Google and returns a caller of the API as that account. */
export async function asUser(
  email: string,
): Promise<(path: string, init?: { method?: string; body?: unknown }) => Promise<ApiAnswer>> {
  const user = await signInWithGoogle({ sub: `sub-${email}`, email, name: email.split("@")[0] });
  return (path, init = {}) =>
    callApi(path, {
      idToken: user.idToken,
      appCheck: appCheckToken(),
      method: init.method ?? "GET",
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      headers: init.body === undefined ? {} : { "content-type": "application/json" },
    });
}
