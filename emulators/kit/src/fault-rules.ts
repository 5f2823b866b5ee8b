/**
 * The bookkeeping of fault rules, shared by every emulator that injects faults: rules are kept in the order
 * they were added, named `fault-1`, `fault-2`..., listed as copies, removed one by one or all at once. What a
 * rule matches and what it does stays with each emulator; operations are matched the same way everywhere.
 */

/** `*` matches every operation, `family.*` every operation under it, anything else one operation id. */
export function matchesOperation(pattern: string, operation: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith(".*")) return operation.startsWith(pattern.slice(0, -1));
  return pattern === operation;
}

export class FaultRules<R extends { id: string }> {
  private rules: R[] = [];
  private nextId = 1;

  /** Adds the rule `make` builds with its new id. */
  add(make: (id: string) => R): R {
    const rule = make(`fault-${this.nextId++}`);
    this.rules.push(rule);
    return rule;
  }

  /** Copies of the rules, in order. */
  list(): R[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  /** The rules themselves, in order, for the emulator to match and update (a copy of the list). */
  active(): R[] {
    return [...this.rules];
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((rule) => rule.id !== id);
    return this.rules.length < before;
  }

  clear(): void {
    this.rules = [];
  }
}
