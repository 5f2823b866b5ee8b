/**
 * Fault injection: "the next N matching requests fail" with a 5xx (Google's error body) or a connection
 * reset, so callers can test how they behave when object storage is unavailable. Rules match every API
 * call, or one operation (`storage.objects.insert`) or a family (`storage.objects.*`). A test-only `hold`
 * (Cloud Storage offers no such thing) parks the next N matching requests until the rule is released, so
 * a test sees work in flight at that request instead of racing it.
 */
import { FaultRules, Holds, matchesOperation } from "../../kit/src/index";

export type FaultKind = "error" | "reset" | "hold";

export interface FaultRuleInput {
  /** How many matching requests fail (default 1). */
  count?: number;
  kind?: FaultKind;
  /** The HTTP status of an `error` fault: 500, 502, 503 (default), 504, or 429. */
  status?: number;
  /** `storage.objects.get`, `storage.objects.*` or `*` (default). */
  operation?: string;
  /** Only calls on objects whose name starts with this (a call that names no object never matches). */
  objectPrefix?: string;
}

export interface FaultRule {
  id: string;
  kind: FaultKind;
  status: number;
  operation: string;
  objectPrefix?: string;
  remaining: number;
  fired: number;
}

const STATUSES = [429, 500, 502, 503, 504];

export class Faults {
  private readonly rules = new FaultRules<FaultRule>();
  /** The requests hold rules parked (kept until released, also after a rule's count is used up). */
  readonly holds = new Holds();

  /** Adds a rule; throws a message for the admin API when the input is malformed. */
  add(input: FaultRuleInput): FaultRule {
    const count = input.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
      throw new Error("count must be a positive integer");
    }
    const kind = input.kind ?? "error";
    if (kind !== "error" && kind !== "reset" && kind !== "hold")
      throw new Error("kind must be 'error', 'reset' or 'hold'");
    const status = input.status ?? 503;
    if (!STATUSES.includes(status)) throw new Error(`status must be one of ${STATUSES.join(", ")}`);
    const operation = input.operation ?? "*";
    if (typeof operation !== "string" || !/^(\*|[a-z]+(\.[a-zA-Z]+)*(\.\*)?)$/.test(operation)) {
      throw new Error("operation must be an operation id, a prefix ending in .*, or *");
    }
    const prefix = input.objectPrefix;
    if (prefix !== undefined && (typeof prefix !== "string" || prefix.length === 0)) {
      throw new Error("objectPrefix must be a non-empty string");
    }
    return this.rules.add((id) => ({
      id,
      kind,
      status,
      operation,
      ...(prefix !== undefined ? { objectPrefix: prefix } : {}),
      remaining: count,
      fired: 0,
    }));
  }

  list(): FaultRule[] {
    return this.rules.list();
  }

  clear(): void {
    this.holds.releaseAll();
    this.rules.clear();
  }

  /** Removes the rule `id` and lets the requests it holds go on: false when there is no such rule or hold. */
  release(id: string): boolean {
    const known = this.holds.has(id);
    this.holds.release(id);
    return this.rules.remove(id) || known;
  }

  /** The fault this request gets, if any (the first matching rule, used up one step). */
  take(operation: string, objectName?: string): FaultRule | undefined {
    const rule = this.rules
      .active()
      .find(
        (candidate) =>
          matchesOperation(candidate.operation, operation) &&
          (candidate.objectPrefix === undefined || (objectName?.startsWith(candidate.objectPrefix) ?? false)),
      );
    if (!rule) return undefined;
    rule.remaining -= 1;
    rule.fired += 1;
    if (rule.remaining === 0) this.rules.remove(rule.id);
    return { ...rule };
  }
}
