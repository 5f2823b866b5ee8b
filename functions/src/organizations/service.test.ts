import { isConsumerEmail, nextRenewal, randomId } from "./service";

test("when an address is a consumer Gmail one, then it has no Workspace (googlemail too, any case)", () => {
  expect(isConsumerEmail("someone@gmail.com")).toBe(true);
  expect(isConsumerEmail("Someone@GoogleMail.com")).toBe(true);
  expect(isConsumerEmail("admin@gmail.com.example.test")).toBe(false);
  expect(isConsumerEmail("admin@company.test")).toBe(false);
});

test("when renewal is computed, then it is the next monthly anniversary after now", () => {
  expect(nextRenewal("2026-01-15T10:00:00.000Z", new Date("2026-01-20T00:00:00Z"))).toBe(
    "2026-02-15T10:00:00.000Z",
  );
  expect(nextRenewal("2026-01-15T10:00:00.000Z", new Date("2026-11-22T00:00:00Z"))).toBe(
    "2026-12-15T10:00:00.000Z",
  );
});

test("when ids are drawn, then they are 10 characters of digits, letters, hyphen and underscore, and differ", () => {
  const ids = new Set(Array.from({ length: 200 }, () => randomId()));
  expect(ids.size).toBe(200);
  for (const id of ids) expect(id).toMatch(/^[0-9A-Za-z_-]{10}$/);
});
