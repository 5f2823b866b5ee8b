/**
 * Faults on demand: rules that match calls by method id (or a `prefix.*`) and user, and answer with a
 * Google error, a connection reset, added latency or a truncated body (and, for tests only, an upload whose
 * stored content is altered). A rule fires with a probability
 * (drawn from a seeded generator, so runs repeat) or follows a scripted sequence, one step per matching
 * call ("ok" lets the call through).
 */
import { FaultRules, Holds, matchesOperation } from "../../kit/src/index";
import { GoogleApiError } from "./http";

export type FaultAction =
  | { kind: "error"; status: number; reason?: string; message?: string }
  | { kind: "reset" }
  | { kind: "latency"; ms: number }
  | { kind: "truncate" }
  /**
   * Test-only (Google offers no such thing): the content an upload of this call stores (a message
   * imported or inserted, a Drive file created or updated) has one byte altered, so what is read back later
   * differs from what was sent. For tests of code that must notice a restore that did not round-trip.
   */
  | { kind: "corrupt-upload" }
  /**
   * Test-only (Google offers no such thing): the call waits, before Google would start on it, until the
   * rule is removed (`DELETE /faults/{id}`, which lets every held call go on) or for two minutes at most.
   * A test sees work in flight at a point it chooses instead of racing it (`GET /faults/{id}/held`).
   * `rule` is filled in when the fault fires: the hold is the rule's.
   */
  | { kind: "hold"; rule?: string };

export type FaultStep = FaultAction | "ok";

export interface FaultRuleInput {
  /** Method id (`gmail.users.messages.get`), a prefix (`gmail.*`) or `*`. */
  method?: string;
  /** Only calls made for this user (email). */
  user?: string;
  /** One action with a probability... */
  action?: FaultAction;
  probability?: number;
  /** ...how many times it may fire (default: unlimited)... */
  times?: number;
  /** ...or a scripted sequence, consumed one step per matching call; the rule ends with it. */
  sequence?: FaultStep[];
}

export interface FaultRule extends FaultRuleInput {
  id: string;
  fired: number;
}

/** Google's wording for the errors a fault can inject, by status. */
const DEFAULT_ERRORS: Record<number, { reason: string; message: string; domain: string }> = {
  400: { reason: "badRequest", message: "Bad Request", domain: "global" },
  403: { reason: "rateLimitExceeded", message: "Rate Limit Exceeded", domain: "usageLimits" },
  404: { reason: "notFound", message: "Requested entity was not found.", domain: "global" },
  429: { reason: "rateLimitExceeded", message: "Too many requests", domain: "usageLimits" },
  500: { reason: "backendError", message: "Backend Error", domain: "global" },
  502: { reason: "backendError", message: "Bad Gateway", domain: "global" },
  503: { reason: "backendError", message: "The service is currently unavailable.", domain: "global" },
};

export function faultError(action: Extract<FaultAction, { kind: "error" }>): GoogleApiError {
  const known = DEFAULT_ERRORS[action.status] ?? {
    reason: "backendError",
    message: "Error",
    domain: "global",
  };
  return new GoogleApiError(action.status, action.message ?? known.message, action.reason ?? known.reason, {
    domain: known.domain,
  });
}

/** mulberry32: small, fast, seeded. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function validAction(action: unknown): action is FaultAction {
  if (typeof action !== "object" || action === null) return false;
  const value = action as Record<string, unknown>;
  switch (value.kind) {
    case "error":
      return typeof value.status === "number" && value.status >= 400 && value.status <= 599;
    case "latency":
      return typeof value.ms === "number" && value.ms >= 0 && value.ms <= 120_000;
    case "reset":
    case "truncate":
    case "corrupt-upload":
    case "hold":
      return true;
    default:
      return false;
  }
}

export class FaultInjector {
  private readonly rules = new FaultRules<FaultRule>();
  private readonly holds = new Holds();
  private random: () => number;

  constructor(seed = 1) {
    this.random = seededRandom(seed);
  }

  /** Adds a rule; throws a message for the admin API when the rule is malformed. */
  add(input: FaultRuleInput): FaultRule {
    if (!input.action && !input.sequence) throw new Error("A fault rule needs an action or a sequence");
    if (input.action && !validAction(input.action)) throw new Error("Invalid fault action");
    if (input.sequence && !input.sequence.every((step) => step === "ok" || validAction(step))) {
      throw new Error("Invalid step in fault sequence");
    }
    if (input.probability !== undefined && !(input.probability >= 0 && input.probability <= 1)) {
      throw new Error("probability must be between 0 and 1");
    }
    return this.rules.add((id) => ({
      method: input.method,
      user: input.user?.toLowerCase(),
      action: input.action,
      probability: input.probability,
      times: input.times,
      sequence: input.sequence ? [...input.sequence] : undefined,
      id,
      fired: 0,
    }));
  }

  list(): FaultRule[] {
    return this.rules.list();
  }

  remove(id: string): boolean {
    this.holds.release(id);
    return this.rules.remove(id);
  }

  clear(seed?: number): void {
    this.holds.releaseAll();
    this.rules.clear();
    if (seed !== undefined) this.random = seededRandom(seed);
  }

  /** The actions to apply to this call (latency first, at most one terminal action). */
  pick(methodId: string, user: string | undefined): FaultAction[] {
    const actions: FaultAction[] = [];
    for (const rule of this.rules.active()) {
      if (!matches(rule, methodId, user)) continue;
      let action: FaultAction | undefined;
      if (rule.sequence) {
        const step = rule.sequence.shift();
        if (rule.sequence.length === 0) this.remove(rule.id);
        if (step && step !== "ok") action = step;
      } else if (rule.action && (rule.probability === undefined || this.random() < rule.probability)) {
        action = rule.action;
        if (rule.times !== undefined && rule.fired + 1 >= rule.times) this.remove(rule.id);
      }
      if (!action) continue;
      rule.fired += 1;
      actions.push(action.kind === "hold" ? { kind: "hold", rule: rule.id } : action);
      if (action.kind !== "latency") break;
    }
    return actions;
  }

  /** Parks a call under the hold rule `id` until the rule is removed (see `Holds`). */
  hold(id: string): Promise<void> {
    return this.holds.hold(id);
  }

  /** The calls the hold rule `id` parked, once at least `count` (undefined after `withinMs`). */
  held(id: string, count: number, withinMs: number): Promise<number | undefined> {
    return this.holds.held(id, count, withinMs);
  }
}

function matches(rule: FaultRule, methodId: string, user: string | undefined): boolean {
  if (rule.user && rule.user !== user?.toLowerCase()) return false;
  return matchesOperation(rule.method ?? "*", methodId);
}
