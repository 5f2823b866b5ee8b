import { isId } from "./ids";

test("when a value is one of the ids the product mints, then it is an id", () => {
  for (const id of [
    "default",
    "a1B2c3D4e5",
    "user-136180281855955327032",
    "drive-0AbC_dEf-123",
    "cs_sandbox_1",
  ]) {
    expect(isId(id)).toBe(true);
  }
});

test("when a value could name another document or is not a short printable string, then it is not an id", () => {
  for (const value of [
    "",
    "a/b",
    "a%2Fb",
    ".",
    "..",
    "__proto__",
    "__name__",
    "a b",
    "é",
    "\ud800",
    "x".repeat(129),
    42,
    null,
    undefined,
    {},
    ["a"],
  ]) {
    expect(isId(value)).toBe(false);
  }
});
