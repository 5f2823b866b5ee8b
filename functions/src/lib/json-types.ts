/**
 * Type checks of request bodies before any rule or cast: yup casts on the way to its rules (a list becomes
 * its text, a number a string), so a schema alone does not tell a string from something that prints as one.
 * `typeMismatch` walks a yup schema's fields and list items and names the first value of another JSON type
 * (or a field the schema lacks that is named like an object's own method, which yup cannot check).
 */
import type { AnySchema, ArraySchema, ObjectSchema } from "yup";

const EXPECTED: Record<string, string> = {
  string: "text",
  number: "a number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
};

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isFinite(value) ? "number" : "not-finite";
  return typeof value;
}

/**
 * The message for the first field of `value` whose JSON type differs from the schema's ("folderName must
 * be text."), or undefined. Absent and null values are left to the schema's own rules.
 */
export function typeMismatch(schema: AnySchema, value: unknown, path = ""): string | undefined {
  if (value === undefined || value === null) return undefined;
  const expected = EXPECTED[schema.type];
  if (!expected) return undefined;
  if (jsonType(value) !== schema.type) return `${path || "The request body"} must be ${expected}.`;
  if (schema.type === "object") {
    const fields = (schema as ObjectSchema<Record<string, unknown>>).fields as Record<string, AnySchema>;
    // A field named like an object's own method (valueOf, toString, constructor…) that the schema does not
    // have: yup would take the method for the field's schema and fail with a TypeError (a 500).
    for (const name of Object.keys(value as object)) {
      if (!Object.hasOwn(fields, name) && name in Object.prototype)
        return `${path ? `${path}.${name}` : name} is not a field of this request.`;
    }
    for (const [name, field] of Object.entries(fields)) {
      const problem = typeMismatch(
        field,
        (value as Record<string, unknown>)[name],
        path ? `${path}.${name}` : name,
      );
      if (problem) return problem;
    }
  }
  if (schema.type === "array") {
    const inner = (schema as ArraySchema<unknown[] | undefined, object>).innerType as AnySchema | undefined;
    if (inner) {
      for (const [index, item] of (value as unknown[]).entries()) {
        const problem = typeMismatch(inner, item, `${path}[${index}]`);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}
