/**
 * The running stack's Workspace emulator, reached the way any googleapis client would: the service-account
 * key file the emulator writes, official clients with `rootUrl`, and its admin API for test set-up.
 */
import { readFileSync } from "node:fs";
import { drive_v3 } from "@googleapis/drive";
import { gmail_v1 } from "@googleapis/gmail";
import { admin_directory_v1 } from "@googleapis/admin";
import { calendar_v3 } from "@googleapis/calendar";
import { people_v1 } from "@googleapis/people";
import { emulatorJwt, type ServiceAccountCredentials } from "../../emulators/workspace/src/index";
import { stackEnv } from "./stack-env";

export const DEMO_DOMAIN = "alpvault-demo.test";
export const DEMO_ADMIN = `admin@${DEMO_DOMAIN}`;

function key(): ServiceAccountCredentials {
  return JSON.parse(readFileSync(stackEnv.workspaceKeyFile, "utf8")) as ServiceAccountCredentials;
}

export function workspaceJwt(subject: string | undefined, scopes: string[]): ReturnType<typeof emulatorJwt> {
  return emulatorJwt(stackEnv.workspaceUrl, key(), { subject, scopes });
}

export function gmailFor(subject: string, scopes: string[]): gmail_v1.Gmail {
  return new gmail_v1.Gmail({ auth: workspaceJwt(subject, scopes), rootUrl: `${stackEnv.workspaceUrl}/` });
}

export function driveFor(subject: string, scopes: string[]): drive_v3.Drive {
  return new drive_v3.Drive({ auth: workspaceJwt(subject, scopes), rootUrl: `${stackEnv.workspaceUrl}/` });
}

export function calendarFor(subject: string, scopes: string[]): calendar_v3.Calendar {
  return new calendar_v3.Calendar({
    auth: workspaceJwt(subject, scopes),
    rootUrl: `${stackEnv.workspaceUrl}/`,
  });
}

export function peopleFor(subject: string, scopes: string[]): people_v1.People {
  return new people_v1.People({ auth: workspaceJwt(subject, scopes), rootUrl: `${stackEnv.workspaceUrl}/` });
}

export function directoryFor(subject: string, scopes: string[]): admin_directory_v1.Admin {
  return new admin_directory_v1.Admin({
    auth: workspaceJwt(subject, scopes),
    rootUrl: `${stackEnv.workspaceUrl}/`,
  });
}

/** Calls the emulator-only admin API (`/emulator/v1` + path). */
export async function workspaceAdmin<T = unknown>(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${stackEnv.workspaceUrl}/emulator/v1${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/**
 * The faults one test file added, so that it removes its own and never another file's: test files run
 * side by side on one Workspace emulator.
 */
export class FaultsOfThisFile {
  private readonly ids: string[] = [];

  /** Adds a fault rule (the emulator's `POST /faults`); fails the test if the emulator refuses it. */
  async add(rule: Record<string, unknown>): Promise<string> {
    const fault = await workspaceAdmin<{ id: string }>("POST", "/faults", rule);
    if (fault.status !== 200) throw new Error(`the Workspace emulator refused a fault: ${fault.status}`);
    this.ids.push(fault.body.id);
    return fault.body.id;
  }

  /** Removes every fault this file added that is still there. */
  async removeAll(): Promise<void> {
    for (const id of this.ids.splice(0)) {
      const removed = await workspaceAdmin("DELETE", `/faults/${id}`);
      // 404: a fault with a count of times that was used up is already gone.
      if (removed.status !== 204 && removed.status !== 404)
        throw new Error(`fault ${id} not removed: ${removed.status}`);
    }
  }
}

/**
 * Calls of one method (and user) held by the Workspace emulator (a `hold` fault) until `release`: a test
 * sees the product's work in flight at that call instead of racing it.
 */
export async function holdCalls(method: string, user: string) {
  const added = await workspaceAdmin<{ id: string }>("POST", "/faults", {
    method,
    user,
    action: { kind: "hold" },
  });
  if (added.status !== 200) throw new Error(`the Workspace emulator refused a hold: ${added.status}`);
  const id = added.body.id;
  return {
    /** Resolves once `count` calls are held (fails after 30 s: the work never reached the call). */
    async held(count = 1): Promise<void> {
      const answer = await workspaceAdmin("GET", `/faults/${id}/held?count=${count}&withinMs=30000`);
      if (answer.status !== 200) throw new Error(`${method} for ${user} was not called ${count} times`);
    },
    /** Lets every held call go on, and later ones through. */
    async release(): Promise<void> {
      const removed = await workspaceAdmin("DELETE", `/faults/${id}`);
      if (removed.status !== 204 && removed.status !== 404) throw new Error(`hold ${id} not removed`);
    },
  };
}
