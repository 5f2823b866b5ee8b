/**
 * A small in-memory API behind `fetch` for component tests: the web's real `api-client.ts` and
 * `decodeAnswer` run against it. A test says what each route answers (`answer`), makes it fail with
 * `{code, message}` (`fail`), with a body that is not JSON (`failNotJson`) or before any answer
 * (`failNetwork`), holds its answers until it releases them (`hold`, for loading states), and reads what
 * the screen sent (`requests`). Every answer is checked against the route's schema in `API_CONTRACT`
 * before it is sent: one that does not fit, a call to a route the contract does not list, or a call no
 * answer was given for, fails the test (`assertNoViolations`, run after each test).
 */
import {
  API_CONTRACT,
  errorAnswerSchema,
  type AnswerOf,
  type ApiRoute,
  type RecordedRequest,
  type RouteContract,
} from "./api-contract";

export type { AnswerOf, ApiRoute, RecordedRequest } from "./api-contract";

/** A route's answer: its value, or a function of the request (called for each request). */
export type Answer<R extends ApiRoute> = AnswerOf<R> | ((request: RecordedRequest) => AnswerOf<R>);

type Outcome =
  | { kind: "answer"; answer: Answer<ApiRoute> }
  | { kind: "error"; code: number; message: string }
  | { kind: "not-json"; status: number; text: string }
  | { kind: "network" };

interface Hold {
  only: (request: RecordedRequest) => boolean;
  released: Promise<void>;
  release: () => void;
  arrived: number;
}

interface CompiledRoute {
  route: ApiRoute;
  method: string;
  pattern: RegExp;
  names: string[];
  contract: RouteContract;
}

/**
 * "/a/:b/c/:d:e" → a pattern whose groups are the `:name` parts that start a segment (a part holds neither
 * "/" nor ":"); a colon inside a segment is literal (":check").
 */
function compile(route: ApiRoute): CompiledRoute {
  const [method = "", path = ""] = route.split(" ");
  const names: string[] = [];
  const source = path
    .split(/(?<=\/)(:[A-Za-z]+)/)
    .map((part, index) => {
      // The split's captures (odd places) are the parameters.
      if (index % 2 === 1) {
        names.push(part.slice(1));
        return "([^/:]+)";
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return {
    route,
    method,
    pattern: new RegExp(`^${source}$`),
    names,
    contract: API_CONTRACT[route] as RouteContract,
  };
}

const ROUTES = (Object.keys(API_CONTRACT) as ApiRoute[]).map(compile);

/** Why a value does not fit a schema, in a line a failing test can print. */
function misfit(
  schema: { safeParse(value: unknown): { success: boolean; error?: unknown } },
  value: unknown,
) {
  const result = schema.safeParse(value);
  return result.success ? null : String(result.error);
}

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

function abortError(): DOMException {
  return new DOMException("The operation was aborted.", "AbortError");
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(init?.headers).entries());
}

export class FakeApi {
  private readonly outcomes = new Map<ApiRoute, Outcome>();
  private readonly holds = new Map<ApiRoute, Hold>();
  private readonly recorded: { route: ApiRoute | null; request: RecordedRequest }[] = [];
  private readonly violations: string[] = [];

  /** The `fetch` the web calls; `install` puts it in place. */
  readonly fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    this.handle(String(input instanceof Request ? input.url : input), init);

  /** What `route` answers from now on (checked against its schema now when it is a value). */
  answer<R extends ApiRoute>(route: R, answer: Answer<R>): this {
    if (typeof answer !== "function") this.check(route, answer, null);
    this.outcomes.set(route, { kind: "answer", answer: answer as Answer<ApiRoute> });
    return this;
  }

  /** Whether the test said what `route` answers (or how it fails). */
  has(route: ApiRoute): boolean {
    return this.outcomes.has(route);
  }

  /** `route` fails with `{code, message}` (status `code`) from now on. */
  fail(route: ApiRoute, error: { code: number; message: string }): this {
    const problem = misfit(errorAnswerSchema, error);
    if (problem) throw new Error(`The error of ${route} is not {code, message}: ${problem}`);
    this.outcomes.set(route, { kind: "error", ...error });
    return this;
  }

  /** `route` answers `text` that is not JSON (a proxy's error page, say) with `status`. */
  failNotJson(route: ApiRoute, status = 502, text = "<html><body>Bad gateway</body></html>"): this {
    this.outcomes.set(route, { kind: "not-json", status, text });
    return this;
  }

  /** Calls of `route` fail before any answer (fetch rejects, as when the network is down). */
  failNetwork(route: ApiRoute): this {
    this.outcomes.set(route, { kind: "network" });
    return this;
  }

  /**
   * Calls of `route` (those `only` picks, when given) wait until `release()`; they then get what the route
   * answers at that time. `arrived` counts the calls that came in meanwhile.
   */
  hold(
    route: ApiRoute,
    only: (request: RecordedRequest) => boolean = () => true,
  ): { release: () => void; readonly arrived: number } {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const hold: Hold = {
      only,
      released,
      arrived: 0,
      release: () => {
        if (this.holds.get(route) === hold) this.holds.delete(route);
        release();
      },
    };
    this.holds.set(route, hold);
    return {
      release: hold.release,
      get arrived() {
        return hold.arrived;
      },
    };
  }

  /** The requests received, oldest first; of one route when `route` is given. */
  requests(route?: ApiRoute): RecordedRequest[] {
    return this.recorded
      .filter((entry) => route === undefined || entry.route === route)
      .map((entry) => entry.request);
  }

  /** The newest request of `route`; fails when there was none. */
  lastRequest(route: ApiRoute): RecordedRequest {
    const request = this.requests(route).at(-1);
    if (!request) throw new Error(`No request of ${route} was sent`);
    return request;
  }

  /** Fails with every contract violation seen (an answer off its schema, an unknown or unanswered call). */
  assertNoViolations(): void {
    if (this.violations.length === 0) return;
    const found = this.violations.splice(0);
    throw new Error(`The fake API saw calls outside the contract:\n- ${found.join("\n- ")}`);
  }

  private check(route: ApiRoute, value: unknown, request: RecordedRequest | null): string | null {
    const contract = API_CONTRACT[route] as RouteContract;
    let problem: string | null = null;
    if (contract.kind === "json") {
      const schema = request && contract.schemaFor ? contract.schemaFor(request) : contract.schema;
      problem = misfit(schema, value);
    } else if (contract.kind === "file" && typeof value !== "string") {
      problem = "a file answer is its text";
    } else if (contract.kind === "empty" && value !== undefined) {
      problem = "the route answers 204 without a body";
    }
    if (problem && !request)
      throw new Error(`The answer given for ${route} does not fit its schema: ${problem}`);
    return problem;
  }

  private record(
    url: string,
    init: RequestInit | undefined,
  ): { request: RecordedRequest; matched?: CompiledRoute } {
    const parsed = new URL(url, window.location.href);
    const method = (init?.method ?? "GET").toUpperCase();
    const path = parsed.pathname.replace(/^\/v1(?=\/)/, "");
    const query: Record<string, string[]> = {};
    for (const [key, value] of parsed.searchParams) (query[key] ??= []).push(value);
    const body = typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
    const request: RecordedRequest = {
      method,
      host: parsed.host,
      path,
      params: {},
      query,
      body,
      fields: typeof body === "object" && body !== null && !Array.isArray(body) ? { ...body } : {},
      headers: headersOf(init),
    };
    for (const candidate of ROUTES) {
      const match = candidate.method === method ? candidate.pattern.exec(path) : null;
      if (!match) continue;
      candidate.names.forEach(
        (name, index) => (request.params[name] = decodeURIComponent(match[index + 1] ?? "")),
      );
      return { request, matched: candidate };
    }
    return { request };
  }

  private async handle(url: string, init: RequestInit | undefined): Promise<Response> {
    const { request, matched } = this.record(url, init);
    this.recorded.push({ route: matched?.route ?? null, request });
    if (!matched) {
      this.violations.push(`${request.method} ${request.path}: no such route in the API contract`);
      return jsonResponse(404, { code: 404, message: `No route ${request.method} ${request.path}` });
    }
    const hold = this.holds.get(matched.route);
    if (hold?.only(request)) {
      hold.arrived += 1;
      await new Promise<void>((resolve, reject) => {
        const signal = init?.signal;
        if (signal?.aborted) return reject(abortError());
        signal?.addEventListener("abort", () => reject(abortError()), { once: true });
        void hold.released.then(resolve);
      });
    }
    if (init?.signal?.aborted) throw abortError();
    return this.respond(matched, request);
  }

  private respond(matched: CompiledRoute, request: RecordedRequest): Response {
    const outcome = this.outcomes.get(matched.route);
    switch (outcome?.kind) {
      case undefined:
        this.violations.push(`${matched.route}: called, but the test gave no answer for it`);
        return jsonResponse(501, { code: 501, message: `No answer for ${matched.route}` });
      case "error":
        return jsonResponse(outcome.code, { code: outcome.code, message: outcome.message });
      case "not-json":
        return new Response(outcome.text, {
          status: outcome.status,
          headers: { "Content-Type": "text/html" },
        });
      case "network":
        throw new TypeError("Failed to fetch");
      case "answer":
        break;
    }
    const value = typeof outcome.answer === "function" ? outcome.answer(request) : outcome.answer;
    const problem = this.check(matched.route, value, request);
    if (problem) {
      this.violations.push(`${matched.route}: the answer does not fit its schema: ${problem}`);
      return jsonResponse(500, { code: 500, message: "The fake answer does not fit the contract" });
    }
    const { contract } = matched;
    if (contract.kind === "empty") return new Response(null, { status: 204 });
    if (contract.kind === "file") {
      return new Response(String(value), { status: 200, headers: { "Content-Type": contract.contentType } });
    }
    return jsonResponse(200, value);
  }
}

/**
 * A fresh fake API installed as the page's `fetch` (the previous one, if any, is replaced). Each test
 * starts with its own (see `renderWithProviders`).
 */
export function installFakeApi(): FakeApi {
  const api = new FakeApi();
  globalThis.fetch = api.fetch as typeof fetch;
  installed = api;
  return api;
}

let installed: FakeApi | null = null;

/** The fake API the page's `fetch` is now, if any. */
export function installedFakeApi(): FakeApi | null {
  return installed;
}

/** Takes the fake API away (after a test); a later call fails the test that makes it. */
export function uninstallFakeApi(): void {
  installed = null;
  globalThis.fetch = (() => Promise.reject(new Error("No fake API is installed"))) as typeof fetch;
}
