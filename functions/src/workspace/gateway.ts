/**
 * Everything the API asks Google Workspace, through Google's official clients: is our app installed for
 * a user's domain (domain-wide delegation works for the scopes we need), is the user a super admin, the
 * domain's users and shared drives. Locally the same clients talk to the Workspace emulator.
 */
import { admin_directory_v1 } from "@googleapis/admin";
import { drive_v3 } from "@googleapis/drive";
import { JWT } from "google-auth-library";
import type { WorkspaceConfig } from "../config";
import { DomainError } from "../lib/errors";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { isAccessRefusal } from "@alpvault/contracts/services";

/** Scopes the installation grants us: back up and restore Gmail and Drive, read the directory. */
export const REQUIRED_SCOPES = [
  "https://www.googleapis.com/auth/gmail.readonly",
  "https://www.googleapis.com/auth/gmail.modify",
  "https://www.googleapis.com/auth/gmail.insert",
  "https://www.googleapis.com/auth/gmail.labels",
  "https://www.googleapis.com/auth/drive",
  "https://www.googleapis.com/auth/admin.directory.user.readonly",
] as const;

const DIRECTORY_SCOPES = ["https://www.googleapis.com/auth/admin.directory.user.readonly"];
const DRIVE_SCOPES = ["https://www.googleapis.com/auth/drive"];

export type InstallationState = "installed" | "not-installed" | "no-account";

export interface WorkspaceUser {
  id: string;
  email: string;
  name: string;
  isAdmin: boolean;
  suspended: boolean;
}

export interface DirectoryUser {
  id: string;
  isAdmin: boolean;
}

export interface SharedDrive {
  id: string;
  name: string;
}

export interface WorkspaceGateway {
  /** Whether delegation works for `email` with every required scope. */
  installation(email: string): Promise<InstallationState>;
  /** Whether delegation grants every one of `scopes` for `email` (Google refuses the set otherwise). */
  grants(email: string, scopes: readonly string[]): Promise<boolean>;
  /**
   * The Directory's record of `email`, read as that user: their Google account id (the `sub` of their
   * Google sign-in) and whether they are a super admin. Undefined when they may not read the directory.
   */
  directoryUser(email: string): Promise<DirectoryUser | undefined>;
  /** Every user of the admin's customer, suspended ones included. */
  listUsers(adminEmail: string): Promise<WorkspaceUser[]>;
  /** Every shared drive of the admin's domain. */
  listSharedDrives(adminEmail: string): Promise<SharedDrive[]>;
}

/** Sends Google's hosts (the token endpoint above all) to the emulator: the one place that mapping lives. */
function redirectToEmulator(jwt: JWT, emulatorUrl: string): void {
  const target = new URL(emulatorUrl);
  jwt.transporter.interceptors.request.add({
    resolved: async (config) => {
      if (config.url) {
        const url = new URL(config.url.toString());
        if (/(^|\.)googleapis\.com$|^accounts\.google\.com$/.test(url.hostname)) {
          url.protocol = target.protocol;
          url.host = target.host;
          config.url = url;
        }
      }
      return config;
    },
  });
}

interface GaxiosLikeError {
  response?: { status?: number; data?: unknown };
}

function tokenError(error: unknown): string | undefined {
  const data = (error as GaxiosLikeError).response?.data as { error?: unknown } | undefined;
  return typeof data?.error === "string" ? data.error : undefined;
}

function status(error: unknown): number | undefined {
  return (error as GaxiosLikeError).response?.status;
}

function unavailable(cause: unknown): DomainError {
  return DomainError.unavailable(ORGANIZATION_MESSAGES.workspaceUnavailable, cause);
}

/** Reads every page of a Google list call; any failure is "Workspace unavailable" (503). */
async function allPages<T>(
  page: (pageToken: string | undefined) => Promise<{ items: T[]; next?: string | null }>,
): Promise<T[]> {
  const items: T[] = [];
  let pageToken: string | undefined;
  try {
    do {
      const answer = await page(pageToken);
      items.push(...answer.items);
      pageToken = answer.next ?? undefined;
    } while (pageToken);
  } catch (error) {
    throw unavailable(error);
  }
  return items;
}

/** The clients' `rootUrl`: the emulator's locally, Google's own (undefined) in production. */
export function workspaceRootUrl(config: WorkspaceConfig): string | undefined {
  return config.emulatorUrl ? `${config.emulatorUrl.replace(/\/$/, "")}/` : undefined;
}

/** The service account acting as `subject` (domain-wide delegation) for `scopes`. */
export function delegatedJwt(config: WorkspaceConfig, subject: string, scopes: readonly string[]): JWT {
  const key = config.serviceAccountKey();
  const client = new JWT({
    email: key.client_email,
    key: key.private_key,
    subject,
    scopes: [...scopes],
    // Node's own fetch (gaxios would load node-fetch with a dynamic import).
    transporterOptions: { fetchImplementation: fetch },
  });
  if (config.emulatorUrl) redirectToEmulator(client, config.emulatorUrl);
  return client;
}

export function workspaceGateway(config: WorkspaceConfig): WorkspaceGateway {
  const rootUrl = workspaceRootUrl(config);
  const jwt = (subject: string, scopes: readonly string[]): JWT => delegatedJwt(config, subject, scopes);
  const directory = (subject: string) =>
    new admin_directory_v1.Admin({ auth: jwt(subject, DIRECTORY_SCOPES), ...(rootUrl ? { rootUrl } : {}) });
  const drive = (subject: string) =>
    new drive_v3.Drive({ auth: jwt(subject, DRIVE_SCOPES), ...(rootUrl ? { rootUrl } : {}) });

  return {
    async installation(email) {
      try {
        await jwt(email, REQUIRED_SCOPES).getAccessToken();
        return "installed";
      } catch (error) {
        const reason = tokenError(error);
        if (reason === "unauthorized_client") return "not-installed";
        if (reason === "invalid_grant") return "no-account";
        throw unavailable(error);
      }
    },

    async grants(email, scopes) {
      try {
        await jwt(email, scopes).getAccessToken();
        return true;
      } catch (error) {
        if (isAccessRefusal(tokenError(error))) return false;
        throw unavailable(error);
      }
    },

    async directoryUser(email) {
      try {
        const { data } = await directory(email).users.get({ userKey: email });
        return typeof data.id === "string" ? { id: data.id, isAdmin: data.isAdmin === true } : undefined;
      } catch (error) {
        if (status(error) === 403 || status(error) === 404 || tokenError(error)) return undefined;
        throw unavailable(error);
      }
    },

    async listUsers(adminEmail) {
      const client = directory(adminEmail);
      const pages = allPages(async (pageToken) => {
        const { data } = await client.users.list({ customer: "my_customer", maxResults: 500, pageToken });
        return { items: data.users ?? [], next: data.nextPageToken };
      });
      return (await pages).flatMap((user) =>
        user.id && user.primaryEmail
          ? [
              {
                id: user.id,
                email: user.primaryEmail,
                name: user.name?.fullName ?? user.primaryEmail,
                isAdmin: user.isAdmin === true,
                suspended: user.suspended === true,
              },
            ]
          : [],
      );
    },

    async listSharedDrives(adminEmail) {
      const client = drive(adminEmail);
      const drives = await allPages(async (pageToken) => {
        const { data } = await client.drives.list({ useDomainAdminAccess: true, pageSize: 100, pageToken });
        return { items: data.drives ?? [], next: data.nextPageToken };
      });
      return drives.flatMap((item) => (item.id ? [{ id: item.id, name: item.name ?? item.id }] : []));
    },
  };
}
