/**
 * Test harness: an emulator on a free port in this process, and the official Google clients pointed at it
 * (`@googleapis/gmail`, `@googleapis/drive`, `@googleapis/admin`, google-auth-library).
 */
import { admin_directory_v1 } from "@googleapis/admin";
import { drive_v3 } from "@googleapis/drive";
import { gmail_v1 } from "@googleapis/gmail";
import type { JWT } from "google-auth-library";
import type { Clock } from "../../../kit/src/index";
import {
  DEFAULT_GRANTED_SCOPES,
  SCOPES,
  newServiceAccountKeyPair,
  type ServiceAccountKeyPair,
} from "../auth";
import { emulatorJwt } from "../client";
import type { WorkspaceEmulator } from "../emulator";
import type { LatencySettings } from "../latency";
import type { QuotaSettings } from "../quota-models";
import { startWorkspaceEmulator, type RunningWorkspaceEmulator } from "../server";

export const TEST_DOMAIN = "example-test.test";
export const TEST_ADMIN = `admin@${TEST_DOMAIN}`;
export const TEST_USER = `user@${TEST_DOMAIN}`;

export interface Harness {
  url: string;
  emulator: WorkspaceEmulator;
  /** A delegated (or, without subject, the service account's own) token client. */
  jwt(subject: string | undefined, scopes: string[]): JWT;
  gmail(subject: string, scopes?: string[]): gmail_v1.Gmail;
  drive(subject: string, scopes?: string[]): drive_v3.Drive;
  directory(subject: string, scopes?: string[]): admin_directory_v1.Admin;
  /** Calls the emulator-only admin API (`/emulator/v1` + path). */
  admin<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

/**
 * One service-account key pair for every emulator a test file starts, and a short one (1,024 bits): a new
 * 2048-bit pair costs 0.1–0.5 s of CPU, and these keys sign nothing outside the emulator.
 */
let sharedKeyPair: ServiceAccountKeyPair | undefined;

/**
 * Starts an emulator with one customer (`example-test.test`, app installed with the default scopes), an
 * admin and a user, unless `empty` is set. Quotas are on (2026 model) unless `quota` says otherwise, and
 * answers take the latency model's time unless `latency` says `{ enabled: false }`: a test file that does
 * not test timing turns it off explicitly, and says so. A test of timing passes a `ManualClock` and moves
 * its time (`clock.run(work)`) rather than waiting for real time. The emulators of one test file share
 * one service-account key pair (each still has its own key id and tokens).
 */
export async function startHarness(
  options: {
    quota?: Partial<QuotaSettings>;
    latency?: Partial<LatencySettings>;
    projectId?: string;
    empty?: boolean;
    /** What Google's time runs on (a `ManualClock`: the test moves time; default the system's). */
    clock?: Clock;
  } = {},
): Promise<Harness> {
  const running: RunningWorkspaceEmulator = await startWorkspaceEmulator({
    port: 0,
    profile: "empty",
    quota: options.quota,
    latency: options.latency,
    projectId: options.projectId,
    ...(options.clock ? { clock: options.clock } : {}),
    keyPair: (sharedKeyPair ??= newServiceAccountKeyPair(1024)),
  });
  const { emulator, url } = running;
  if (!options.empty) {
    emulator.directory.addCustomer({ domain: TEST_DOMAIN, installed: true, scopes: DEFAULT_GRANTED_SCOPES });
    emulator.directory.addUser({ email: TEST_ADMIN, givenName: "Test", familyName: "Admin", isAdmin: true });
    emulator.directory.addUser({ email: TEST_USER, givenName: "Test", familyName: "User" });
  }
  const key = emulator.oauth.serviceAccount;
  const jwt = (subject: string | undefined, scopes: string[]): JWT =>
    emulatorJwt(url, key, { subject, scopes });
  return {
    url,
    emulator,
    jwt,
    gmail: (subject, scopes = [SCOPES.gmailModify, SCOPES.gmailInsert]) =>
      new gmail_v1.Gmail({ auth: jwt(subject, scopes), rootUrl: `${url}/` }),
    drive: (subject, scopes = [SCOPES.drive]) =>
      new drive_v3.Drive({ auth: jwt(subject, scopes), rootUrl: `${url}/` }),
    directory: (subject, scopes = [SCOPES.directoryUserReadonly]) =>
      new admin_directory_v1.Admin({ auth: jwt(subject, scopes), rootUrl: `${url}/` }),
    admin: async <T>(method: string, path: string, body?: unknown) => {
      const response = await fetch(`${url}/emulator/v1${path}`, {
        method,
        headers: body === undefined ? {} : { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
    },
    stop: () => running.stop(),
  };
}

/** The `{error: {...}}` body and status of a rejected googleapis call (GaxiosError). */
export async function googleError(
  promise: Promise<unknown>,
): Promise<{ status: number; reason?: string; message?: string; body: unknown }> {
  try {
    await promise;
  } catch (error) {
    const response = (error as { response?: { status: number; data: unknown } }).response;
    if (!response) throw error;
    const data = response.data as
      { error?: { errors?: { reason?: string }[]; message?: string } } | undefined;
    return {
      status: response.status,
      reason: data?.error?.errors?.[0]?.reason,
      message: data?.error?.message,
      body: data,
    };
  }
  throw new Error("Expected the call to fail, but it succeeded.");
}
