/**
 * Field values of the in-memory Firestore (`memory-firestore.ts`): copies, Firestore's order of values,
 * dotted field paths, and the writes' `merge` and `FieldValue` transforms.
 */

export type Data = Record<string, unknown>;

/** A field as a query or `get` names it: a dotted path, or a `FieldPath` (`FieldPath.documentId()`). */
export function nameOf(field: unknown): string {
  if (typeof field === "string") return field;
  const formatted = (field as { formattedName?: unknown } | null)?.formattedName;
  if (typeof formatted === "string") return formatted;
  throw new Error("The in-memory Firestore takes field paths as strings or FieldPath");
}

function isMap(value: unknown): value is Data {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array) &&
    !(value instanceof Date) &&
    Object.getPrototypeOf(value) === Object.prototype
  );
}

/** A deep copy (what a read hands out never shares state with the store). */
export function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clone) as T;
  if (value instanceof Uint8Array) return Buffer.from(value) as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (isMap(value))
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, clone(entry)])) as T;
  return value;
}

/** The value at a dotted path (undefined when absent). */
export function fieldOf(data: Data, path: string): unknown {
  let value: unknown = data;
  for (const part of path.split(".")) {
    if (!isMap(value)) return undefined;
    value = value[part];
  }
  return value;
}

/** A copy of `data` with the value at a dotted path replaced (removed when `value` is undefined). */
export function withField(data: Data, path: string, value: unknown): Data {
  const [head, ...rest] = path.split(".") as [string, ...string[]];
  const out = { ...data };
  if (rest.length === 0) {
    if (value === undefined) delete out[head];
    else out[head] = value;
    return out;
  }
  const inner = isMap(data[head]) ? (data[head] as Data) : {};
  out[head] = withField(inner, rest.join("."), value);
  return out;
}

const TYPE_ORDER = ["null", "boolean", "number", "date", "string", "bytes", "array", "map"];

function typeOf(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof Date) return "date";
  if (value instanceof Uint8Array) return "bytes";
  if (Array.isArray(value)) return "array";
  if (typeof value === "object") return "map";
  return typeof value;
}

/** Firestore's order of two values: by type first, then by value. */
export function compare(a: unknown, b: unknown): number {
  const [typeA, typeB] = [typeOf(a), typeOf(b)];
  if (typeA !== typeB) return TYPE_ORDER.indexOf(typeA) - TYPE_ORDER.indexOf(typeB);
  if (typeA === "array") {
    const [left, right] = [a as unknown[], b as unknown[]];
    for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
      const sign = compare(left[index], right[index]);
      if (sign !== 0) return sign;
    }
    return left.length - right.length;
  }
  if (typeA === "map") return compare(JSON.stringify(a), JSON.stringify(b));
  if (typeA === "bytes") return Buffer.compare(a as Uint8Array, b as Uint8Array);
  if (typeA === "date") return (a as Date).getTime() - (b as Date).getTime();
  if (typeA === "null") return 0;
  return (a as number | string | boolean) < (b as number | string | boolean) ? -1 : a === b ? 0 : 1;
}

/** The stored value of a written one at a field whose value was `current` (FieldValue transforms applied). */
function storedValue(current: unknown, value: unknown): unknown {
  if (value === undefined) throw new Error('Cannot use "undefined" as a Firestore value');
  const method = (value as { methodName?: unknown } | null)?.methodName;
  if (method === "FieldValue.increment") {
    return (typeof current === "number" ? current : 0) + (value as { operand: number }).operand;
  }
  if (method === "FieldValue.serverTimestamp") return new Date();
  if (method === "FieldValue.arrayUnion") {
    const elements = (value as { elements: unknown[] }).elements;
    const before = Array.isArray(current) ? current : [];
    return [...before, ...elements.filter((entry) => !before.some((one) => compare(one, entry) === 0))];
  }
  if (typeof method === "string") throw new Error(`The in-memory Firestore does not apply ${method}`);
  if (Array.isArray(value)) return value.map((entry) => storedValue(undefined, entry));
  if (isMap(value)) return transformed({}, value);
  return clone(value);
}

const isDelete = (value: unknown) =>
  (value as { methodName?: unknown } | null)?.methodName === "FieldValue.delete";

/**
 * `data` written onto `base`: each key replaces its field (`dotted`: keys are field paths, as `update` takes
 * them), transforms applied against the field's value in `base`.
 */
export function transformed(base: Data, data: Data, dotted = false): Data {
  let out = { ...base };
  for (const [key, value] of Object.entries(data)) {
    if (!dotted) {
      if (isDelete(value)) delete out[key];
      else out[key] = storedValue(out[key], value);
    } else {
      out = withField(out, key, isDelete(value) ? undefined : storedValue(fieldOf(out, key), value));
    }
  }
  return out;
}

/** `data` merged into `base` (`set` with `merge: true`): maps merge field by field. */
export function merged(base: Data, data: Data): Data {
  const out = { ...base };
  for (const [key, value] of Object.entries(data)) {
    if (isDelete(value)) delete out[key];
    else if (isMap(value)) out[key] = merged(isMap(base[key]) ? (base[key] as Data) : {}, value);
    else out[key] = storedValue(base[key], value);
  }
  return out;
}
