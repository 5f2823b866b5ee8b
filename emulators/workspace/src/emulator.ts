/**
 * The Workspace emulator's core: the state (directory, Gmail, Drive), OAuth, quotas, latency and faults,
 * and the dispatcher every request goes through: route → latency model (the answer's time to the first
 * byte and bandwidth) → token and scope check → faults → quota → handler → `fields` partial response →
 * Google's JSON or error body.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { SYSTEM_CLOCK, type Clock } from "../../kit/src/index";
import { OAuthServer, type ServiceAccountKeyPair } from "./auth";
import { CalendarStore } from "./calendar/store";
import { type CalendarSnapshot } from "./calendar/store-model";
import { DirectoryStore, type DirectorySnapshot, type DirectoryUser } from "./directory/store";
import { DriveStore } from "./drive/store";
import { type DriveSnapshot } from "./drive/store-model";
import { FaultInjector, faultError, type FaultAction } from "./faults";
import { GmailStore } from "./gmail/store";
import { type GmailSnapshot } from "./gmail/store-model";
import { type PeopleSnapshot } from "./people/model";
import { PeopleStore } from "./people/store";
import {
  GoogleApiError,
  RESPONDED,
  Router,
  applyFields,
  createContext,
  sendGoogleError,
  sendJson,
  type RequestContext,
} from "./http";
import { LatencyModel, type LatencySettings } from "./latency";
import { countResponseBytes, paceResponse } from "./pacing";
import { QuotaTracker } from "./quota";
import type { QuotaSettings } from "./quota-models";
import type { Principal } from "./principal";
import { UploadSessions } from "./uploads";
import { UserWriteQueue, isPeopleWrite } from "./people/write-queue";

export interface EmulatorSnapshot {
  format: 1;
  directory: DirectorySnapshot;
  gmail: GmailSnapshot;
  drive: DriveSnapshot;
  /** Absent in state saved before Calendar was served. */
  calendar?: CalendarSnapshot;
  /** Absent in state saved before the People API was served. */
  people?: PeopleSnapshot;
}

export interface EmulatorOptions {
  /** The URL clients reach the emulator on (written into the key file's token_uri and media links). */
  baseUrl: string;
  /** The Google Cloud project of the service account (its quotas). */
  projectId?: string;
  quota?: Partial<QuotaSettings>;
  /** The latency model (on unless `enabled: false`). */
  latency?: Partial<LatencySettings>;
  faultSeed?: number;
  /**
   * What Google's time runs on: answers' latency and bandwidth, injected delays and the quota clock (the
   * system's by default; a test's `ManualClock` to move time instead of waiting). Records (message dates,
   * token expiry) keep real time.
   */
  clock?: Clock;
  /** The service account's key pair (default: a new one; tests share one per process). */
  keyPair?: ServiceAccountKeyPair;
}

/** The project number of the emulator's project: our Marketplace application id. */
const PROJECT_NUMBER = "104857600";

export class WorkspaceEmulator {
  readonly baseUrl: string;
  readonly directory = new DirectoryStore();
  readonly gmail = new GmailStore();
  readonly drive = new DriveStore();
  readonly calendar = new CalendarStore();
  /** Contacts run on the emulator's clock (sync propagation delay, sync token lifetime). */
  readonly people = new PeopleStore(() => this.clock.now());
  /** One user's People writes, one at a time (people/write-queue.ts). */
  private readonly peopleWrites = new UserWriteQueue();
  readonly oauth: OAuthServer;
  readonly quota: QuotaTracker;
  readonly latency: LatencyModel;
  readonly faults: FaultInjector;
  readonly router = new Router<Principal>();
  readonly uploads: UploadSessions;
  readonly clock: Clock;
  /** Resumable Drive upload sessions → who uploads (their bytes count toward the user's daily upload). */
  private readonly uploadOwners = new Map<string, string>();

  constructor(options: EmulatorOptions) {
    this.baseUrl = options.baseUrl.replace(/\/$/, "");
    const projectId = options.projectId ?? "demo-alpvault";
    this.oauth = new OAuthServer(this.directory, {
      projectId,
      tokenUri: `${this.baseUrl}/token`,
      ...(options.keyPair ? { keyPair: options.keyPair } : {}),
    });
    const clock = options.clock ?? SYSTEM_CLOCK;
    this.clock = clock;
    this.calendar.now = () => clock.now();
    this.quota = new QuotaTracker(options.quota, () => clock.now(), {
      defaultProject: projectId,
      projectNumbers: { [projectId]: PROJECT_NUMBER },
    });
    this.latency = new LatencyModel(options.latency);
    this.faults = new FaultInjector(options.faultSeed);
    this.uploads = new UploadSessions(this.baseUrl);
  }

  snapshot(): EmulatorSnapshot {
    return {
      format: 1,
      directory: this.directory.snapshot(),
      gmail: this.gmail.snapshot(),
      drive: this.drive.snapshot(),
      calendar: this.calendar.snapshot(),
      people: this.people.snapshot(),
    };
  }

  restore(snapshot: EmulatorSnapshot): void {
    if (snapshot.format !== 1)
      throw new Error(`Unknown Workspace emulator snapshot format ${String(snapshot.format)}`);
    this.directory.restore(snapshot.directory);
    this.gmail.restore(snapshot.gmail);
    this.drive.restore(snapshot.drive);
    this.calendar.restore(snapshot.calendar);
    this.people.restore(snapshot.people);
    this.oauth.revoke(() => true);
  }

  /** Deletes a user with everything they own, and their tokens. */
  deleteUser(user: DirectoryUser): void {
    this.directory.deleteUser(user);
    this.gmail.dropUser(user.id);
    this.drive.dropUser(user.id);
    this.calendar.dropUser(user.id);
    this.people.dropUser(user.id);
    this.oauth.revoke((info) => info.userId === user.id);
  }

  readonly handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? "/", this.baseUrl);
    const method = request.method ?? "GET";
    const found = this.router.match(method, url.pathname);
    if (!found) {
      sendGoogleError(
        response,
        new GoogleApiError(404, `Method not found: ${method} ${url.pathname}`, "notFound", {
          status: "NOT_FOUND",
        }),
      );
      return;
    }
    const { route, params } = found;
    const context = createContext(request, response, url, params);
    const project = this.oauth.serviceAccount.project_id;
    const pacing = this.pace(context, route.id, route.quotaId?.(context) ?? route.id, !!route.scopes);
    let release: (() => void) | undefined;
    let releaseWrite: (() => void) | undefined;
    let truncate = false;
    try {
      let principal: Principal | undefined;
      if (route.scopes) {
        const token = this.oauth.authorize(context, route.scopes);
        principal = { token, user: token.userId ? this.directory.user(token.userId) : undefined };
      }
      const methodId = route.quotaId?.(context) ?? route.id;
      if (route.scopes) {
        const email = principal?.user?.primaryEmail;
        for (const action of this.faults.pick(methodId, email)) {
          const started = this.clock.now();
          if (await this.applyFault(action, request)) return;
          if (action.kind === "latency" || action.kind === "hold") pacing?.delay(this.clock.now() - started);
          if (action.kind === "truncate") truncate = true;
          if (action.kind === "corrupt-upload") context.corruptUpload = true;
        }
        if (email && isPeopleWrite(route.id, request.method)) {
          const waiting = this.clock.now();
          releaseWrite = await this.peopleWrites.enter(email);
          pacing?.delay(this.clock.now() - waiting);
        }
        // New uploads and copies are refused once the user's daily Drive upload is used up.
        const uploadsMedia = context.path.startsWith("/upload/");
        const upload = uploadsMedia || methodId === "drive.files.copy";
        release = this.quota.begin(methodId, email, { project, upload });
        if (uploadsMedia && email && methodId.startsWith("drive.")) this.countDriveUpload(context, email);
      }
      const result = await route.handler(context, principal as Principal);
      if (result === RESPONDED) return;
      if (result === undefined) {
        response.writeHead(204);
        response.end();
        return;
      }
      const body = applyFields(result, context.query.get("fields"));
      if (truncate) sendTruncated(response, body);
      else sendJson(response, 200, body);
    } catch (error) {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const render = route.renderError ?? ((known: GoogleApiError) => known);
      if (error instanceof GoogleApiError) {
        sendGoogleError(response, render(error));
      } else {
        console.error(`Workspace emulator: ${route.id} failed`, error);
        sendGoogleError(response, render(new GoogleApiError(500, "Backend Error", "backendError")));
      }
    } finally {
      for (const done of [release, releaseWrite]) {
        if (!done) continue;
        if (response.writableFinished || response.destroyed) done();
        else response.once("close", done);
      }
    }
  };

  /**
   * Makes a Google answer take the latency model's time (the token endpoint, API calls and upload session
   * chunks; not the emulator's admin API), and counts Drive's bytes for its daily thresholds.
   */
  private pace(
    context: RequestContext,
    routeId: string,
    methodId: string,
    api: boolean,
  ): { delay(ms: number): void } | undefined {
    const session = routeId === "upload.session";
    if (!api && !session && routeId !== "oauth2.token") return undefined;
    const drive = session ? context.path.startsWith("/upload/drive/") : methodId.startsWith("drive.");
    const timingId = session ? `${drive ? "drive" : "gmail"}.upload.session` : methodId;
    const timing = this.latency.next(timingId);
    const project = this.oauth.serviceAccount.project_id;
    const onBytes = drive ? (bytes: number) => this.quota.countEgress(bytes, project) : undefined;
    const uploadId = context.query.get("upload_id") ?? "";
    const owner = session && drive ? this.uploadOwners.get(uploadId) : undefined;
    if (timing || owner) {
      context.inbound = {
        clock: this.clock,
        bytesPerSecond: timing?.uploadBytesPerSecond ?? Infinity,
        ...(owner ? { onBytes: (bytes: number) => this.quota.countUpload(owner, bytes) } : {}),
      };
    }
    // The last chunk of a session (200 or 201) ends it: its owner is no longer needed.
    const onHeaders = owner
      ? (status: number) => {
          if (status < 300) this.uploadOwners.delete(uploadId);
        }
      : undefined;
    if (!timing) {
      if (onBytes) countResponseBytes(context.response, onBytes);
      if (onHeaders) context.response.once("finish", () => onHeaders(context.response.statusCode));
      return undefined;
    }
    return paceResponse(context.response, {
      clock: this.clock,
      firstByteAt: this.clock.now() + timing.firstByteMs,
      perMiBMs: timing.perMiBMs,
      bytesPerSecond: timing.downloadBytesPerSecond,
      onBytes,
      onHeaders,
    });
  }

  /** A Drive upload's bytes count toward the user's daily upload, resumable sessions' later chunks too. */
  private countDriveUpload(context: RequestContext, email: string): void {
    context.inbound = {
      clock: this.clock,
      bytesPerSecond: context.inbound?.bytesPerSecond ?? Infinity,
      onBytes: (bytes) => this.quota.countUpload(email, bytes),
    };
    if (context.query.get("uploadType") !== "resumable") return;
    const { response } = context;
    const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => typeof response;
    response.writeHead = ((...args: unknown[]) => {
      const headers = args.find((arg) => typeof arg === "object" && arg !== null && !Array.isArray(arg));
      const id = (headers as Record<string, unknown> | undefined)?.["x-guploader-uploadid"];
      if (typeof id === "string" && (args[0] as number) < 300) this.uploadOwners.set(id, email);
      return writeHead(...args);
    }) as typeof response.writeHead;
  }

  /** Applies one fault; true when the request is finished (reset). Errors are thrown. */
  private async applyFault(action: FaultAction, request: IncomingMessage): Promise<boolean> {
    switch (action.kind) {
      case "latency":
        await this.clock.sleep(action.ms);
        return false;
      case "error":
        throw faultError(action);
      case "reset":
        request.socket.destroy();
        return true;
      case "truncate":
      case "corrupt-upload":
        return false;
      case "hold":
        if (action.rule) await this.faults.hold(action.rule);
        return false;
    }
  }
}

/** Announces the whole body, sends half of it and drops the connection, as a broken proxy would. */
function sendTruncated(response: ServerResponse, body: unknown): void {
  const text = Buffer.from(JSON.stringify(body));
  response.writeHead(200, {
    "content-type": "application/json; charset=UTF-8",
    "content-length": text.length,
  });
  response.write(text.subarray(0, Math.floor(text.length / 2)), () => response.destroy());
}
