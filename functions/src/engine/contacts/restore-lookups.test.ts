import { restoreTagSource, restoreTagValue, type RestoreTag } from "./restore-lookups";

const signed: RestoreTag = { id: "r1", secret: Buffer.alloc(32, 7) };
const legacy: RestoreTag = { id: "r1" };

test("when a restore's tag is signed, then only the values its secret signed name their source", () => {
  const value = restoreTagValue(signed, "people/c1");
  expect(value).toMatch(/^r1 people\/c1 [\w-]{22}$/);
  expect(restoreTagSource(signed, value)).toBe("people/c1");
  // Another contact's value, moved to this one; the MAC of another secret; none; a truncated one; more parts.
  const mac = value.split(" ")[2]!;
  for (const forged of [
    `r1 people/c2 ${mac}`,
    restoreTagValue({ id: "r1", secret: Buffer.alloc(32, 8) }, "people/c1"),
    "r1 people/c1",
    `r1 people/c1 ${mac.slice(0, 21)}`,
    `${value} x`,
    restoreTagValue({ ...signed, id: "r2" }, "people/c1"),
  ]) {
    expect(restoreTagSource(signed, forged)).toBeUndefined();
  }
});

test("when a restore started before tags were signed resumes, then its unsigned values are its own and signed ones are not", () => {
  expect(restoreTagValue(legacy, "people/c1")).toBe("r1 people/c1");
  expect(restoreTagSource(legacy, "r1 people/c1")).toBe("people/c1");
  expect(restoreTagSource(legacy, restoreTagValue(signed, "people/c1"))).toBeUndefined();
  expect(restoreTagSource(legacy, "r2 people/c1")).toBeUndefined();
  expect(restoreTagSource(legacy, "r1")).toBeUndefined();
});
