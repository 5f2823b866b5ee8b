/**
 * The answers of the API to hostile input (see hostile-input.ts): how a request is sent exactly as written,
 * what every answer must be, the requests that once broke the API with the refusal each must get, and the
 * signed-in organisation the requests are made for.
 */
import type { Agent } from "node:http";
import { request as httpRequest } from "node:http";
import type { RouteEntry } from "../../functions/src/http/route-table";
import { APP_CHECK_HEADER } from "@alpvault/contracts/app-check";
import { BACKUP_MESSAGES } from "@alpvault/contracts/backups";
import { BILLING_MESSAGES } from "@alpvault/contracts/billing";
import { ORGANIZATION_MESSAGES } from "@alpvault/contracts/organizations";
import { RECOVERY_MESSAGES } from "@alpvault/contracts/recovery";
import { SECRET_MESSAGES } from "@alpvault/contracts/secrets";
import { BODY_MESSAGES } from "../../functions/src/http/body";
import { appCheckToken } from "./api-client";
import { signInWithGoogle } from "./auth-emulator";
import { jsonText, type Body, type Known } from "./hostile-input";
import { googleSubOf, onboarded } from "./organizations";

/**
 * A hang, not a speed target: any answer slower than this is a failure. The Functions emulator starts a
 * new worker process (our whole function code loaded again) for a request that finds every worker busy;
 * with the browser suites beside this file on two cores, one such answer took more than 10 s.
 */
export const ANSWER_WITHIN_MS = 30_000;

export interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** A path the runtime's router cannot decode (its route parameter is decoded before the function runs). */
export function runtimeRefusesPath(url: string): boolean {
  try {
    decodeURIComponent(url.split("?")[0] ?? "");
    return false;
  } catch {
    return true;
  }
}

/** A JSON body that the runtime's parser refuses (not JSON, or JSON but neither an object nor an array). */
export function runtimeRefusesJson(sent: Body | undefined): boolean {
  if (!sent || !sent.contentType.startsWith("application/json")) return false;
  try {
    const value: unknown = JSON.parse(sent.text);
    return typeof value !== "object" || value === null;
  } catch {
    return true;
  }
}

/**
 * Checks one answer: below 500, and an error is `{code, message}` with the status as code. `runtime`: the
 * request went through the Cloud Functions runtime, whose own refusals (a body that does not parse, a path
 * that does not decode) are a plain 400 of its own.
 */
export function checkAnswer(
  route: RouteEntry,
  url: string,
  sent: Body | undefined,
  answer: Answer,
  runtime: boolean,
): void {
  const where = `${route.method} ${url} (${sent ? `${sent.contentType}: ${sent.text.slice(0, 200)}` : "no body"})`;
  if (answer.status >= 500)
    throw new Error(`${where} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  if (answer.status < 400) return;
  if (runtime && (runtimeRefusesJson(sent) || runtimeRefusesPath(url))) {
    if (answer.status !== 400) throw new Error(`${where} answered ${answer.status}, not 400`);
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    throw new Error(`${where} answered ${answer.status} without a JSON body: ${answer.text.slice(0, 300)}`);
  }
  const error = parsed as { code?: unknown; message?: unknown };
  if (
    typeof parsed !== "object" ||
    parsed === null ||
    Object.keys(parsed).sort().join() !== "code,message" ||
    error.code !== answer.status ||
    typeof error.message !== "string" ||
    error.message.length === 0
  ) {
    throw new Error(`${where} answered ${answer.status} with ${answer.text.slice(0, 300)}`);
  }
}

/**
 * Sends the request exactly as written: node:http, not fetch, whose URL parser would resolve `.`, `..`,
 * `%2E%2E` segments before sending and so never let them reach the API. `base`: the API's URL (its path,
 * when it has one, goes before the request's).
 */
export function send(
  agent: Agent,
  base: string,
  route: RouteEntry,
  url: string,
  sent: Body | undefined,
  idToken: string,
): Promise<Answer> {
  const target = new URL(base);
  const body = sent ? Buffer.from(sent.text, "utf8") : undefined;
  const headers: Record<string, string | number> = {
    authorization: `Bearer ${idToken}`,
    [APP_CHECK_HEADER]: appCheckToken(),
  };
  if (sent && body) {
    headers["content-type"] = sent.contentType;
    headers["content-length"] = body.length;
  }
  return new Promise<Answer>((resolvePromise, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: route.method,
        path: `${target.pathname.replace(/\/+$/, "")}${url}`,
        headers,
        agent,
        timeout: ANSWER_WITHIN_MS,
      },
      (response) => {
        const parts: Buffer[] = [];
        response.on("data", (part: Buffer) => parts.push(part));
        response.on("error", reject);
        response.on("end", () =>
          resolvePromise({
            status: response.statusCode ?? 0,
            contentType: String(response.headers["content-type"] ?? ""),
            text: Buffer.concat(parts).toString("utf8"),
          }),
        );
      },
    );
    request.on("timeout", () =>
      request.destroy(new Error(`${route.method} ${url} gave no answer within ${ANSWER_WITHIN_MS} ms`)),
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** A real organisation's admin, signed in, and the organisation's ids the requests use half of the time. */
export async function hostileInputSetup(): Promise<{ known: Known; idToken: string }> {
  const setup = await onboarded();
  const admin = await signInWithGoogle({
    sub: await googleSubOf(setup.workspace.admin),
    email: setup.workspace.admin,
  });
  return {
    idToken: admin.idToken,
    known: {
      organizationId: setup.organization.organizationId,
      subscriptionId: setup.organization.subscriptions[0]!.subscriptionId,
      resourceId: `user-${await googleSubOf(setup.workspace.admin)}`,
      otherResourceId: `user-${await googleSubOf(setup.workspace.user)}`,
    },
  };
}

export interface PastBreak {
  method: string;
  url: () => string;
  body?: () => Body;
  status: number;
  message: string;
}

export function pastBreaks(known: Known): Record<string, PastBreak> {
  const org = () => `/v1/organizations/${known.organizationId}`;
  /** A valid recovery request with `extra` members after its own (raw JSON: the last of two equal keys wins). */
  const recovery = (extra: string): Body =>
    jsonText(
      `{"resourceId":"${known.resourceId}","service":"gmail","location":"original","method":"folder",` +
        `"folderName":"R",${extra}}`,
    );
  return {
    "an encoded slash as the organisation id": {
      method: "GET",
      url: () => "/v1/organizations/a%2Fb",
      status: 404,
      message: ORGANIZATION_MESSAGES.organizationNotFound,
    },
    "three segments as the organisation id": {
      method: "GET",
      url: () => "/v1/organizations/a%2Fb%2Fc/secrets",
      status: 404,
      message: ORGANIZATION_MESSAGES.organizationNotFound,
    },
    "an encoded slash as a secret id": {
      method: "DELETE",
      url: () => `${org()}/secrets/a%2Fb`,
      status: 404,
      message: SECRET_MESSAGES.secretNotFound,
    },
    "an encoded slash as a checkout id": {
      method: "GET",
      url: () => `${org()}/payments/a%2Fb`,
      status: 404,
      message: BILLING_MESSAGES.paymentNotFound,
    },
    "an encoded slash as a resource id": {
      method: "POST",
      url: () => `${org()}/resources/a%2Fb/backups`,
      status: 404,
      message: BACKUP_MESSAGES.resourceNotFound,
    },
    "an encoded slash on the payment page": {
      method: "GET",
      url: () => "/v1/payments/sandbox/a%2Fb",
      status: 404,
      message: BILLING_MESSAGES.paymentNotFound,
    },
    "a slash in a recovery's resource id": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"resourceId":"a/b"'),
      status: 400,
      message: RECOVERY_MESSAGES.resourceNotFound,
    },
    "an object as a recovery's folder name": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"folderName":{}'),
      status: 400,
      message: "folderName must be text.",
    },
    "a list as a recovery's date": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"date":["01-01-2026"]'),
      status: 400,
      message: "date must be text.",
    },
    "a slash in an estimated recovery's resource id": {
      method: "POST",
      url: () => `${org()}/recoveries/estimate`,
      body: () => recovery('"resourceId":"a/b"'),
      status: 400,
      message: RECOVERY_MESSAGES.resourceNotFound,
    },
    "an object as an estimated recovery's folder name": {
      method: "POST",
      url: () => `${org()}/recoveries/estimate`,
      body: () => recovery('"folderName":{}'),
      status: 400,
      message: "folderName must be text.",
    },
    "a number as a recovery's resource id": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"resourceId":5'),
      status: 400,
      message: "resourceId must be text.",
    },
    "a __proto__ key": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"__proto__":{"x":1}'),
      status: 400,
      message: BODY_MESSAGES.forbiddenKey,
    },
    "a constructor key": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"constructor":{"x":1}'),
      status: 400,
      message: BODY_MESSAGES.forbiddenKey,
    },
    "5,000-deep nesting": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery(`"x":${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`),
      status: 400,
      message: BODY_MESSAGES.tooDeep,
    },
    "a lone surrogate in a policy name": {
      method: "PATCH",
      url: () => `${org()}/policies/default`,
      body: () => jsonText('{"name":"Gold \\ud800"}'),
      status: 400,
      message: BODY_MESSAGES.notUnicode,
    },
    "a lone surrogate in a resource id": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"resourceId":"\\udfff"'),
      status: 400,
      message: BODY_MESSAGES.notUnicode,
    },
    "an 11 MB body": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery(`"x":"${"x".repeat(11_000_000)}"`),
      status: 413,
      message: BODY_MESSAGES.tooLarge,
    },
    "a recovery field named like an object's method (valueOf)": {
      method: "POST",
      url: () => `${org()}/recoveries`,
      body: () => recovery('"valueOf":""'),
      status: 400,
      message: "valueOf is not a field of this request.",
    },
    "a form instead of JSON": {
      method: "POST",
      url: () => `${org()}/policies`,
      body: () => ({ text: "name=x", contentType: "application/x-www-form-urlencoded" }),
      status: 415,
      message: BODY_MESSAGES.notJson,
    },
  };
}
