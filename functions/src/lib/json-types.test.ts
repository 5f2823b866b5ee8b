import * as yup from "yup";
import { recoveryRequestSchema } from "@alpvault/contracts/recovery-request";
import { typeMismatch } from "./json-types";

const schema = yup.object({
  name: yup.string().trim(),
  count: yup.number(),
  on: yup.boolean(),
  ids: yup.array(yup.string().required()),
});

test("when every field has the schema's JSON type (or is absent or null), then there is no mismatch", () => {
  expect(typeMismatch(schema, { name: " a ", count: 2, on: false, ids: ["x"] })).toBeUndefined();
  expect(typeMismatch(schema, { name: null })).toBeUndefined();
  expect(typeMismatch(schema, {})).toBeUndefined();
});

test.each([
  [{ name: ["a"] }, "name must be text."],
  [{ name: { toString: "x" } }, "name must be text."],
  [{ name: 5 }, "name must be text."],
  [{ count: "5" }, "count must be a number."],
  [{ count: Number.POSITIVE_INFINITY }, "count must be a number."],
  [{ on: "true" }, "on must be true or false."],
  [{ ids: "x" }, "ids must be a list."],
  [{ ids: ["x", 2] }, "ids[1] must be text."],
  [["x"], "The request body must be an object."],
  ["x", "The request body must be an object."],
])("when %j is checked, then the mismatch is named: %s", (value, message) => {
  expect(typeMismatch(schema, value)).toBe(message);
});

test("when a recovery's folder name or date is an object or a list, then the recovery schema's check names it", () => {
  expect(typeMismatch(recoveryRequestSchema, { folderName: { a: 1 } })).toBe("folderName must be text.");
  expect(typeMismatch(recoveryRequestSchema, { date: ["01-01-2026"] })).toBe("date must be text.");
  expect(typeMismatch(recoveryRequestSchema, { resourceId: 7 })).toBe("resourceId must be text.");
});

test.each(["valueOf", "toString", "constructor", "hasOwnProperty"])(
  "when a request body holds a field named %s that the schema lacks, then the check names it instead of yup failing",
  (name) => {
    const body = JSON.parse(`{"${name}": ""}`) as unknown;
    // What yup does with it unchecked: takes Object.prototype's method for the field's schema.
    expect(() => recoveryRequestSchema.validateSync(body)).toThrow(TypeError);
    expect(typeMismatch(recoveryRequestSchema, body)).toBe(`${name} is not a field of this request.`);
  },
);

test("when such a field is inside a nested object, then its path is named", () => {
  const schema = yup.object({ place: yup.object({ label: yup.string() }) });
  expect(typeMismatch(schema, { place: { toString: "x" } })).toBe(
    "place.toString is not a field of this request.",
  );
  expect(typeMismatch(schema, { place: { label: "x" }, other: "kept" })).toBeUndefined();
});
