/**
 * Firestore values as plain objects (the shape the protocol classes accept in `fromObject`), with
 * Firestore's ordering rules: values of different types order by type (null < boolean < number <
 * timestamp < string < bytes < reference < geo point < array < map); integers and doubles are one
 * "number" type compared numerically (1 == 1.0, NaN first); strings compare by UTF-8 bytes.
 */
import { Value as ProtoValue } from "@firestore-emulator/proto/dist/google/firestore/v1/document";

export interface Timestamp {
  seconds: number;
  nanos: number;
}

export type Value =
  | { null_value: 0 }
  | { boolean_value: boolean }
  | { integer_value: number }
  | { double_value: number }
  | { timestamp_value: Timestamp }
  | { string_value: string }
  | { bytes_value: Uint8Array }
  | { reference_value: string }
  | { geo_point_value: { latitude: number; longitude: number } }
  | { array_value: { values: Value[] } }
  | { map_value: { fields: Fields } };

export type Fields = Record<string, Value>;

export class FirestoreError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** gRPC status codes used by the emulator. */
export const Code = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
} as const;

export function fromProto(value: ProtoValue): Value {
  switch (value.value_type) {
    case "null_value":
      return { null_value: 0 };
    case "boolean_value":
      return { boolean_value: value.boolean_value };
    case "integer_value":
      return { integer_value: Number(value.integer_value) };
    case "double_value":
      return { double_value: value.double_value };
    case "timestamp_value":
      return {
        timestamp_value: {
          seconds: Number(value.timestamp_value.seconds),
          nanos: value.timestamp_value.nanos,
        },
      };
    case "string_value":
      return { string_value: value.string_value };
    case "bytes_value":
      return { bytes_value: value.bytes_value };
    case "reference_value":
      return { reference_value: value.reference_value };
    case "geo_point_value":
      return {
        geo_point_value: {
          latitude: value.geo_point_value.latitude,
          longitude: value.geo_point_value.longitude,
        },
      };
    case "array_value":
      return { array_value: { values: value.array_value.values.map(fromProto) } };
    case "map_value":
      return { map_value: { fields: fieldsFromProto(value.map_value.fields) } };
    case "none":
      throw new FirestoreError(Code.INVALID_ARGUMENT, "A value has no value type set.");
  }
}

export function fieldsFromProto(fields: Map<string, ProtoValue>): Fields {
  const result: Fields = {};
  for (const [key, value] of fields) result[key] = fromProto(value);
  return result;
}

const TYPE_ORDER = {
  null_value: 0,
  boolean_value: 1,
  integer_value: 2,
  double_value: 2,
  timestamp_value: 3,
  string_value: 4,
  bytes_value: 5,
  reference_value: 6,
  geo_point_value: 7,
  array_value: 8,
  map_value: 9,
} as const;

export type ValueKind = keyof typeof TYPE_ORDER;

export function kindOf(value: Value): ValueKind {
  for (const key in value) return key as ValueKind;
  throw new FirestoreError(Code.INVALID_ARGUMENT, "A value has no value type set.");
}

export function typeOrder(value: Value): number {
  return TYPE_ORDER[kindOf(value)];
}

export function isNumber(value: Value): value is { integer_value: number } | { double_value: number } {
  return "integer_value" in value || "double_value" in value;
}

export function numberOf(value: { integer_value: number } | { double_value: number }): number {
  return "integer_value" in value ? value.integer_value : value.double_value;
}

export function isNaNValue(value: Value): boolean {
  return "double_value" in value && Number.isNaN(value.double_value);
}

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

function compareNumbers(a: number, b: number): number {
  if (Number.isNaN(a)) return Number.isNaN(b) ? 0 : -1;
  if (Number.isNaN(b)) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares strings by code point, which is the same as comparing their UTF-8 encodings. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  return compareStringRanges(a, 0, a.length, b, 0, b.length);
}

/** Compares a[fromA, toA) with b[fromB, toB) as compareStrings does. */
function compareStringRanges(
  a: string,
  fromA: number,
  toA: number,
  b: string,
  fromB: number,
  toB: number,
): number {
  const length = Math.min(toA - fromA, toB - fromB);
  for (let i = 0; i < length; i++) {
    const ca = a.charCodeAt(fromA + i);
    const cb = b.charCodeAt(fromB + i);
    if (ca === cb) continue;
    // A surrogate (0xD800-0xDFFF) encodes a code point above 0xFFFF, greater than any BMP character.
    const sa = ca >= 0xd800 && ca <= 0xdfff;
    const sb = cb >= 0xd800 && cb <= 0xdfff;
    if (sa !== sb) return sa ? 1 : -1;
    return ca < cb ? -1 : 1;
  }
  return sign(toA - fromA - (toB - fromB));
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return (a[i] ?? 0) < (b[i] ?? 0) ? -1 : 1;
  return sign(a.length - b.length);
}

/** Compares document names segment by segment (without splitting them: index sorts call this a lot). */
export function compareReferences(a: string, b: string): number {
  let fromA = 0;
  let fromB = 0;
  for (;;) {
    const slashA = a.indexOf("/", fromA);
    const slashB = b.indexOf("/", fromB);
    const toA = slashA < 0 ? a.length : slashA;
    const toB = slashB < 0 ? b.length : slashB;
    const c = compareStringRanges(a, fromA, toA, b, fromB, toB);
    if (c !== 0) return c;
    if (slashA < 0 || slashB < 0) return slashA < 0 ? (slashB < 0 ? 0 : -1) : 1;
    fromA = slashA + 1;
    fromB = slashB + 1;
  }
}

export function compareValues(a: Value, b: Value): number {
  const ta = typeOrder(a);
  const tb = typeOrder(b);
  if (ta !== tb) return ta < tb ? -1 : 1;
  if ("null_value" in a) return 0;
  if ("boolean_value" in a && "boolean_value" in b)
    return sign(Number(a.boolean_value) - Number(b.boolean_value));
  if (isNumber(a) && isNumber(b)) return compareNumbers(numberOf(a), numberOf(b));
  if ("timestamp_value" in a && "timestamp_value" in b) {
    return (
      sign(a.timestamp_value.seconds - b.timestamp_value.seconds) ||
      sign(a.timestamp_value.nanos - b.timestamp_value.nanos)
    );
  }
  if ("string_value" in a && "string_value" in b) return compareStrings(a.string_value, b.string_value);
  if ("bytes_value" in a && "bytes_value" in b) return compareBytes(a.bytes_value, b.bytes_value);
  if ("reference_value" in a && "reference_value" in b) {
    return compareReferences(a.reference_value, b.reference_value);
  }
  if ("geo_point_value" in a && "geo_point_value" in b) {
    return (
      compareNumbers(a.geo_point_value.latitude, b.geo_point_value.latitude) ||
      compareNumbers(a.geo_point_value.longitude, b.geo_point_value.longitude)
    );
  }
  if ("array_value" in a && "array_value" in b) {
    const va = a.array_value.values;
    const vb = b.array_value.values;
    for (let i = 0; i < Math.min(va.length, vb.length); i++) {
      const c = compareValues(va[i] as Value, vb[i] as Value);
      if (c !== 0) return c;
    }
    return sign(va.length - vb.length);
  }
  if ("map_value" in a && "map_value" in b) {
    const ka = Object.keys(a.map_value.fields).sort(compareStrings);
    const kb = Object.keys(b.map_value.fields).sort(compareStrings);
    for (let i = 0; i < Math.min(ka.length, kb.length); i++) {
      const c =
        compareStrings(ka[i] as string, kb[i] as string) ||
        compareValues(
          a.map_value.fields[ka[i] as string] as Value,
          b.map_value.fields[kb[i] as string] as Value,
        );
      if (c !== 0) return c;
    }
    return sign(ka.length - kb.length);
  }
  return 0;
}

export const valuesEqual = (a: Value, b: Value): boolean => compareValues(a, b) === 0;

/**
 * Parses a field path as the API sends it: segments separated by dots; a segment that is not a plain
 * identifier is quoted in backticks, with `\` escaping a backtick or backslash.
 */
export function parseFieldPath(path: string): string[] {
  const segments: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < path.length; i++) {
    const ch = path[i] as string;
    if (quoted) {
      if (ch === "\\") current += path[++i] ?? "";
      else if (ch === "`") quoted = false;
      else current += ch;
    } else if (ch === "`") quoted = true;
    else if (ch === ".") {
      segments.push(current);
      current = "";
    } else current += ch;
  }
  segments.push(current);
  if (quoted || segments.some((s) => s === "")) {
    throw new FirestoreError(Code.INVALID_ARGUMENT, `Invalid field path: ${path}`);
  }
  return segments;
}

export function getField(fields: Fields, segments: readonly string[]): Value | undefined {
  let current: Fields = fields;
  for (let i = 0; i < segments.length - 1; i++) {
    const next = current[segments[i] as string];
    if (!next || !("map_value" in next)) return undefined;
    current = next.map_value.fields;
  }
  return Object.prototype.hasOwnProperty.call(current, segments[segments.length - 1] as string)
    ? current[segments[segments.length - 1] as string]
    : undefined;
}

/** Returns a copy of `fields` with the value at `segments` set (or removed when `value` is undefined). */
export function setField(fields: Fields, segments: readonly string[], value: Value | undefined): Fields {
  const [head, ...rest] = segments as [string, ...string[]];
  const copy = { ...fields };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
    return copy;
  }
  const child = copy[head];
  if (child && "map_value" in child) {
    copy[head] = { map_value: { fields: setField(child.map_value.fields, rest, value) } };
  } else if (value !== undefined) {
    copy[head] = { map_value: { fields: setField({}, rest, value) } };
  }
  return copy;
}

/** Keeps only the given field paths (a projection or a read mask). */
export function projectFields(fields: Fields, paths: readonly string[][]): Fields {
  let result: Fields = {};
  for (const path of paths) {
    const value = getField(fields, path);
    if (value !== undefined) result = setField(result, path, value);
  }
  return result;
}

export function toProto(value: Value): ProtoValue {
  return ProtoValue.fromObject(value as Parameters<typeof ProtoValue.fromObject>[0]);
}
