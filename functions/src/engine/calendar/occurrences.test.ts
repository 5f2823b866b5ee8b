import { execFileSync } from "node:child_process";
import { occurrencesBetween, type SeriesTimes } from "./occurrences";

const at = (iso: string) => Date.parse(iso);

/** The same expansion by Python's dateutil (rrule, rruleset) in the series' zone: an independent one. */
function dateutilStarts(series: SeriesTimes, from: string, to: string): string[] {
  const script = `
import json, sys
from datetime import datetime, timezone
from zoneinfo import ZoneInfo
from dateutil.rrule import rrulestr
series = json.loads(sys.argv[1])
zone = ZoneInfo(series["timeZone"])
start = datetime.fromisoformat(series["start"].replace("Z", "+00:00")).astimezone(zone).replace(tzinfo=None)
lines = [line.replace(";TZID=" + series["timeZone"], "") for line in series["recurrence"]]
rules = rrulestr("\\n".join(lines), dtstart=start, forceset=True, ignoretz=True)
lo = datetime.fromisoformat(sys.argv[2].replace("Z", "+00:00"))
hi = datetime.fromisoformat(sys.argv[3].replace("Z", "+00:00"))
out = []
for wall in rules:
    instant = wall.replace(tzinfo=zone).astimezone(timezone.utc)
    if instant >= hi: break
    if instant >= lo: out.append(instant.strftime("%Y-%m-%dT%H:%M:%S.000Z"))
print(json.dumps(out))
`;
  const answer = execFileSync("python3", ["-c", script, JSON.stringify(series), from, to], {
    encoding: "utf8",
  });
  return JSON.parse(answer) as string[];
}

describe("occurrencesBetween", () => {
  const daily: SeriesTimes = {
    start: "2026-03-23T08:00:00.000Z",
    end: "2026-03-23T08:30:00.000Z",
    timeZone: "Europe/Zurich",
    recurrence: ["RRULE:FREQ=DAILY", "EXDATE;TZID=Europe/Zurich:20260326T090000"],
  };

  it("keeps a series' wall-clock time across a daylight-saving change, and leaves out its EXDATEs", () => {
    const week = occurrencesBetween(daily, at("2026-03-23T00:00:00Z"), at("2026-03-30T00:00:00Z"));
    expect(week.map((occurrence) => occurrence.start)).toEqual([
      "2026-03-23T08:00:00.000Z",
      "2026-03-24T08:00:00.000Z",
      "2026-03-25T08:00:00.000Z",
      "2026-03-27T08:00:00.000Z",
      "2026-03-28T08:00:00.000Z",
      // Summer time from 29 March: 09:00 in Zürich is 07:00 UTC.
      "2026-03-29T07:00:00.000Z",
    ]);
    expect(week[0]).toEqual({
      start: "2026-03-23T08:00:00.000Z",
      end: "2026-03-23T08:30:00.000Z",
      suffix: "20260323T080000Z",
    });
  });

  it.each<[string, SeriesTimes, string, string]>([
    ["a daily series, years after its start", daily, "2029-06-01T00:00:00Z", "2029-06-08T00:00:00Z"],
    [
      "a weekly series on two days until a UTC instant",
      {
        start: "2026-01-05T16:00:00.000Z",
        end: "2026-01-05T17:00:00.000Z",
        timeZone: "America/New_York",
        recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20260316T210000Z"],
      },
      "2026-03-01T00:00:00Z",
      "2026-04-01T00:00:00Z",
    ],
    [
      "a monthly series with a count",
      {
        start: "2026-01-31T09:00:00.000Z",
        end: "2026-01-31T10:00:00.000Z",
        timeZone: "UTC",
        recurrence: ["RRULE:FREQ=MONTHLY;INTERVAL=1;COUNT=6"],
      },
      "2026-01-01T00:00:00Z",
      "2027-01-01T00:00:00Z",
    ],
  ])("finds the occurrences dateutil finds: %s", (_name, series, from, to) => {
    const starts = occurrencesBetween(series, at(from), at(to)).map((occurrence) => occurrence.start);
    expect(starts.length).toBeGreaterThan(0);
    expect(starts).toEqual(dateutilStarts(series, from, to));
  });

  it("expands an all-day series by date, with Calendar's date suffix", () => {
    const birthdays = occurrencesBetween(
      {
        start: "2020-12-02",
        end: "2020-12-03",
        timeZone: "Europe/Zurich",
        recurrence: ["RRULE:FREQ=YEARLY"],
      },
      at("2026-11-30T00:00:00+01:00"),
      at("2026-12-07T00:00:00+01:00"),
    );
    expect(birthdays).toEqual([{ start: "2026-12-02", end: "2026-12-03", suffix: "20261202" }]);
  });

  it("counts an occurrence that began before the span and ends in it", () => {
    const overnight = occurrencesBetween(
      {
        start: "2026-12-01T22:00:00.000Z",
        end: "2026-12-02T02:00:00.000Z",
        timeZone: "UTC",
        recurrence: ["RRULE:FREQ=DAILY;COUNT=3"],
      },
      at("2026-12-03T00:00:00Z"),
      at("2026-12-04T00:00:00Z"),
    );
    expect(overnight.map((occurrence) => occurrence.start)).toEqual([
      "2026-12-02T22:00:00.000Z",
      "2026-12-03T22:00:00.000Z",
    ]);
  });

  it("finds nothing for a rule it cannot read", () => {
    expect(
      occurrencesBetween(
        { ...daily, recurrence: ["RRULE:NOT A RULE"] },
        at("2026-03-23T00:00:00Z"),
        at("2026-03-30T00:00:00Z"),
      ),
    ).toEqual([]);
  });
});
