import { byteLimitText, durationText } from "./eta";

test("when a duration is phrased, then it is rounded to what matters at its size", () => {
  expect(durationText(45)).toBe("under a minute");
  expect(durationText(2_500)).toBe("42 min");
  expect(durationText(12_000)).toBe("3 h 20 min");
  expect(durationText(7_200)).toBe("2 h");
  // 3,333 minutes: 55 h 33 min, said in days and hours.
  expect(durationText(200_000)).toBe("2 days 7 h");
  expect(durationText(172_800)).toBe("2 days");
});

test("when a byte limit is phrased, then it is in Google's decimal units", () => {
  expect(byteLimitText(750_000_000_000)).toBe("750 GB");
  expect(byteLimitText(1_000_000_000_000)).toBe("1 TB");
  expect(byteLimitText(512)).toBe("512 bytes");
});
