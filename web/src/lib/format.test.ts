/// <reference types="jest" />
import { SEAT_TEXTS } from "@alpvault/contracts/billing";
import {
  formatDate,
  formatGigabytes,
  formatPrice,
  formatPastTime,
  formatRelativeTime,
  formatStorage,
  initials,
  isConsumerMail,
  RANDOM_ID_ALPHABET,
  randomId,
  relativeTimeParts,
} from "./format";

describe("initials", () => {
  it("when a name has several words, then the first letter of each word is taken in upper case", () => {
    expect(initials("Ada Brunner")).toBe("AB");
    expect(initials("  ueli   von  der user ")).toBe("UVDU");
    expect(initials("émile zola")).toBe("ÉZ");
  });

  it("when the name is empty or missing, then the initials are empty", () => {
    expect(initials("")).toBe("");
    expect(initials("   ")).toBe("");
    expect(initials(null)).toBe("");
    expect(initials(undefined)).toBe("");
  });
});

describe("storage sizes", () => {
  it("when a size is below a kilobyte, then it is shown in B with two decimals", () => {
    expect(formatStorage(0)).toBe("0.00 B");
    expect(formatStorage(512)).toBe("512.00 B");
    expect(formatStorage(1023)).toBe("1023.00 B");
  });

  it("when a size is in kilobytes or megabytes, then it is shown in KB or MB with two decimals", () => {
    expect(formatStorage(1024)).toBe("1.00 KB");
    expect(formatStorage(1536)).toBe("1.50 KB");
    expect(formatStorage(5 * 1024 * 1024 + 256 * 1024)).toBe("5.25 MB");
  });

  it("when a size is a gigabyte or more, then it is shown in GB with configurable decimals", () => {
    const size = 1.2346 * 1024 ** 3;
    expect(formatStorage(size)).toBe("1.23 GB");
    expect(formatStorage(size, 0)).toBe("1 GB");
    expect(formatStorage(size, 3)).toBe("1.235 GB");
    expect(formatStorage(2048 * 1024 ** 3, 1)).toBe("2048.0 GB");
  });

  it("when a size is negative or not a number, then it counts as zero", () => {
    expect(formatStorage(-5)).toBe("0.00 B");
    expect(formatStorage(Number.NaN)).toBe("0.00 B");
    expect(formatGigabytes(Number.POSITIVE_INFINITY)).toBe("0.00 GB");
  });

  it("when a size is shown in GB, then small sizes keep the GB unit", () => {
    expect(formatGigabytes(0)).toBe("0.00 GB");
    expect(formatGigabytes(512 * 1024 ** 2)).toBe("0.50 GB");
    expect(formatGigabytes(3 * 1024 ** 3, 0)).toBe("3 GB");
  });
});

describe("prices", () => {
  it("when a price is whole, then it is shown in USD without decimals", () => {
    expect(formatPrice(3)).toBe("$3");
    expect(formatPrice(1200)).toBe("$1,200");
  });

  it("when a price has cents, then it is shown with at most two decimals", () => {
    expect(formatPrice(3.5)).toBe("$3.5");
    expect(formatPrice(3.99)).toBe("$3.99");
    expect(formatPrice(3.999)).toBe("$4");
    expect(formatPrice(0.125)).toBe("$0.13");
  });
});

describe("relative time", () => {
  const now = new Date("2025-06-01T12:00:00Z");
  const at = (milliseconds: number) => new Date(now.getTime() + milliseconds);
  const second = 1000;
  const minute = 60 * second;
  const hour = 60 * minute;
  const day = 24 * hour;

  it("when less than 45 seconds apart, then seconds are used", () => {
    expect(relativeTimeParts(at(-44 * second), now)).toEqual({ value: -44, unit: "second" });
    expect(relativeTimeParts(now, now)).toEqual({ value: 0, unit: "second" });
  });

  it("when 45 seconds or more but under 45 minutes apart, then minutes are used", () => {
    expect(relativeTimeParts(at(-45 * second), now)).toEqual({ value: -1, unit: "minute" });
    expect(relativeTimeParts(at(44 * minute), now)).toEqual({ value: 44, unit: "minute" });
  });

  it("when 45 minutes or more but under 22 hours apart, then hours are used", () => {
    expect(relativeTimeParts(at(-45 * minute), now)).toEqual({ value: -1, unit: "hour" });
    expect(relativeTimeParts(at(21 * hour), now)).toEqual({ value: 21, unit: "hour" });
  });

  it("when 22 hours or more but under 26 days apart, then days are used", () => {
    expect(relativeTimeParts(at(22 * hour), now)).toEqual({ value: 1, unit: "day" });
    expect(relativeTimeParts(at(-25 * day), now)).toEqual({ value: -25, unit: "day" });
  });

  it("when 26 days or more but under 11 months apart, then months are used", () => {
    expect(relativeTimeParts(at(-26 * day), now)).toEqual({ value: -1, unit: "month" });
    expect(relativeTimeParts(at(10 * 30.44 * day), now)).toEqual({ value: 10, unit: "month" });
  });

  it("when 11 months or more apart, then years are used", () => {
    expect(relativeTimeParts(at(-11 * 30.44 * day), now)).toEqual({ value: -1, unit: "year" });
    expect(relativeTimeParts(at(3 * 365.25 * day), now)).toEqual({ value: 3, unit: "year" });
  });

  it("when formatted, then the words read naturally in the past and the future", () => {
    expect(formatRelativeTime(at(-3 * hour), now)).toBe("3 hours ago");
    expect(formatRelativeTime(at(2 * day), now)).toBe("in 2 days");
    expect(formatRelativeTime(at(-10 * second), now)).toBe("10 seconds ago");
    expect(formatRelativeTime(now.toISOString(), now)).toBe("now");
    expect(formatRelativeTime("not a date", now)).toBe("");
  });

  it("when something that happened is stamped after the screen's now (its clock ticks every 30 s), then it reads now, never in the future", () => {
    expect(formatPastTime(at(27 * second), now)).toBe("now");
    expect(formatPastTime(at(-2 * minute), now)).toBe("2 minutes ago");
    expect(formatPastTime("not a date", now)).toBe("");
  });
});

describe("random id", () => {
  it("when no length is given, then the id has 10 characters of the alphabet", () => {
    const id = randomId();
    expect(id).toHaveLength(10);
    expect(id).toMatch(/^[0-9A-Za-z_-]+$/);
  });

  it("when a length is given, then the id has that many characters", () => {
    expect(randomId(32)).toHaveLength(32);
    expect(randomId(0)).toBe("");
  });

  it("when many ids are drawn, then they differ and use the whole alphabet", () => {
    const ids = new Set(Array.from({ length: 500 }, () => randomId()));
    expect(ids.size).toBe(500);
    const used = new Set([...ids].join(""));
    expect(RANDOM_ID_ALPHABET).toHaveLength(64);
    expect(used.size).toBe(64);
  });
});

describe("consumer mail", () => {
  it("when an address ends in gmail.com, then it matches whatever the case", () => {
    expect(isConsumerMail("ada@gmail.com")).toBe(true);
    expect(isConsumerMail("Ada.Brunner@GMAIL.COM")).toBe(true);
  });

  it("when an address is at googlemail.com or a workspace domain, then it does not match", () => {
    expect(isConsumerMail("ada@googlemail.com")).toBe(false);
    expect(isConsumerMail("ada@GoogleMail.com")).toBe(false);
    expect(isConsumerMail("admin@alpvault-demo.test")).toBe(false);
    expect(isConsumerMail("ada@notgmail.com")).toBe(false);
  });

  it("when the value is empty or not a string, then it does not match", () => {
    expect(isConsumerMail("")).toBe(false);
    expect(isConsumerMail("@gmail.com")).toBe(false);
    expect(isConsumerMail(null)).toBe(false);
    expect(isConsumerMail(undefined)).toBe(false);
    expect(isConsumerMail(42)).toBe(false);
  });
});

describe("days", () => {
  it("when an instant is late in its UTC day, then the day is that UTC day, written long in the language", () => {
    expect(formatDate("2026-12-09T23:30:00.000Z", "en")).toBe("December 9, 2026");
    expect(formatDate("2026-12-09T00:00:00.000Z", "fr")).toBe("9 décembre 2026");
    expect(formatDate("not a date")).toBe("");
  });

  it("when the API names a seat overage's stop date in an alert, then it is written as the console writes the day", () => {
    const stopsAt = "2026-12-09T23:30:00.000Z";
    expect(SEAT_TEXTS.exceededAlert(3, stopsAt)).toContain(`backed up until ${formatDate(stopsAt)};`);
  });
});
