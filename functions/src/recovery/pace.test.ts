import { measuredImports } from "./pace";

const progress = (restored: number, skipped: number, failed: number) => ({
  total: 1_000,
  restored,
  skipped,
  failed,
  bytes: 0,
  totalBytes: 0,
});

describe("what a running recovery's pace is measured by", () => {
  it("when items were skipped without an import (already there, not exportable), then only the imports count", () => {
    expect(
      measuredImports(
        progress(200, 234, 3),
        5_000,
        "2026-11-29T08:00:00.000Z",
        new Date("2026-11-29T08:01:00.000Z"),
      ),
    ).toEqual({ items: 203, bytes: 5_000, seconds: 60 });
  });

  it("when it has not started yet, then nothing is measured", () => {
    expect(measuredImports(progress(0, 0, 0), 0, null, new Date())).toBeUndefined();
  });
});
