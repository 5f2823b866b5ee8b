/// <reference types="jest" />
import { NO_DISMISSALS, storageBanner } from "./storage-banner";

const GB = 1024 ** 3;

describe("storage banner (docs/requirements.md#states-and-flows)", () => {
  test("when usage is below 80%, then no banner", () => {
    expect(storageBanner(79 * GB, 100 * GB, NO_DISMISSALS)).toMatchObject({ kind: "none", percent: null });
  });

  test("when usage is at least 80% and below the maximum, then the 'almost' banner at 80%", () => {
    expect(storageBanner(80 * GB, 100 * GB, NO_DISMISSALS)).toMatchObject({ kind: "threshold", percent: 80 });
    expect(storageBanner(99 * GB, 100 * GB, NO_DISMISSALS).kind).toBe("threshold");
  });

  test("when usage is at or above the maximum, then the 'full' banner at 100%", () => {
    expect(storageBanner(100 * GB, 100 * GB, NO_DISMISSALS)).toMatchObject({ kind: "limit", percent: 100 });
    expect(storageBanner(130 * GB, 100 * GB, NO_DISMISSALS).kind).toBe("limit");
  });

  test("when a banner was dismissed, then it stays hidden, but the other one still shows", () => {
    expect(storageBanner(85 * GB, 100 * GB, { threshold: true, limit: false }).kind).toBe("none");
    expect(storageBanner(100 * GB, 100 * GB, { threshold: true, limit: false }).kind).toBe("limit");
    expect(storageBanner(100 * GB, 100 * GB, { threshold: false, limit: true }).kind).toBe("none");
  });

  test("when usage falls below 80% or below 100%, then the matching dismissal is reset", () => {
    expect(storageBanner(50 * GB, 100 * GB, { threshold: true, limit: true }).dismissals).toEqual({
      threshold: false,
      limit: false,
    });
    expect(storageBanner(90 * GB, 100 * GB, { threshold: true, limit: true }).dismissals).toEqual({
      threshold: true,
      limit: false,
    });
  });

  test("when the maximum is 0 or missing, then nothing is checked", () => {
    expect(storageBanner(10, 0, NO_DISMISSALS).kind).toBe("none");
    expect(storageBanner(10, undefined, NO_DISMISSALS).kind).toBe("none");
    expect(storageBanner(undefined, 100, NO_DISMISSALS).kind).toBe("none");
  });
});
