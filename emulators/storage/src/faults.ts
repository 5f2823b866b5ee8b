/**
 * Fault injection: "the next N matching requests fail" with a 5xx (Google's error body) or a connection
 * reset, so callers can test how they behave when object storage is unavailable. Rules match every API
 * call, or one operation (`storage.objects.insert`) or a family (`storage.objects.*`).
 */
import { FaultRules, matchesOperation } from "../../kit/src/index";

export type FaultKind = "error" | "reset";

export interface FaultRuleInput {
  /** How many matching requests fail (default 1). */
  count?: number;
  kind?: FaultKind;
  /** The HTTP status of an `error` fault: 500, 502, 503 (default), 504, or 429. */
  status?: number;
  /** `storage.objects.get`, `storage.objects.*` or `*` (default). */
  operation?: string;
}

export interface FaultRule {
  id: string;
  kind: FaultKind;
  status: number;
  operation: string;
  remaining: number;
  fired: number;
}

const STATUSES = [429, 500, 502, 503, 504];

export class Faults {
  private readonly rules = new FaultRules<FaultRule>();

  /** Adds a rule; throws a message for the admin API when the input is malformed. */
  add(input: FaultRuleInput): FaultRule {
    const count = input.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
      throw new Error("count must be a positive integer");
    }
    const kind = input.kind ?? "error";
    if (kind !== "error" && kind !== "reset") throw new Error("kind must be 'error' or 'reset'");
    const status = input.status ?? 503;
    if (!STATUSES.includes(status)) throw new Error(`status must be one of ${STATUSES.join(", ")}`);
    const operation = input.operation ?? "*";
    if (typeof operation !== "string" || !/^(\*|[a-z]+(\.[a-zA-Z]+)*(\.\*)?)$/.test(operation)) {
      throw new Error("operation must be an operation id, a prefix ending in .*, or *");
    }
    return this.rules.add((id) => ({ id, kind, status, operation, remaining: count, fired: 0 }));
  }

  list(): FaultRule[] {
    return this.rules.list();
  }

  clear(): void {
    this.rules.clear();
  }

  /** The fault this request gets, if any (the first matching rule, used up one step). */
  take(operation: string): FaultRule | undefined {
    const rule = this.rules.active().find((candidate) => matchesOperation(candidate.operation, operation));
    if (!rule) return undefined;
    rule.remaining -= 1;
    rule.fired += 1;
    if (rule.remaining === 0) this.rules.remove(rule.id);
    return { ...rule };
  }
}
