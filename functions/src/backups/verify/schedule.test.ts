import { dailyVerification } from "./schedule";

describe("when the organisation's daily verification is due", () => {
  it("when no daily verification ran yet, then the first is due a day after set-up", () => {
    expect(dailyVerification(undefined, "2026-11-29T10:15:00.000Z")).toEqual({
      nextAt: "2026-11-30T10:15:00.000Z",
      lastAt: null,
    });
  });

  it("when one ran, then the next is due a day after it", () => {
    expect(dailyVerification("2026-12-03T10:20:00.000Z", "2026-11-29T10:15:00.000Z")).toEqual({
      nextAt: "2026-12-04T10:20:00.000Z",
      lastAt: "2026-12-03T10:20:00.000Z",
    });
  });
});
