import { prunableVersions } from "./prune";

const DAY = 24 * 3600 * 1000;
const at = (day: number) => new Date(Date.parse("2026-01-01T00:00:00.000Z") + day * DAY).toISOString();
const versions = [
  { versionId: "v1", capturedAt: at(0) },
  { versionId: "v2", capturedAt: at(10) },
  { versionId: "v3", capturedAt: at(20) },
];
const now = (day: number) => new Date(at(day));

describe("retention", () => {
  test("when an item exists, then its current version is kept for ever and older ones for the retention after their successor", () => {
    const item = { currentVersionId: "v3", deletedAtSource: null };
    const rule = { retentionDays: 30, archiving: false };
    expect(prunableVersions(item, versions, rule, now(39))).toEqual([]);
    expect(prunableVersions(item, versions, rule, now(41))).toEqual(["v1"]);
    expect(prunableVersions(item, versions, rule, now(51))).toEqual(["v1", "v2"]);
    expect(prunableVersions(item, versions, rule, now(10_000))).toEqual(["v1", "v2"]);
  });

  test("when an item was deleted at the source and archiving is off, then its last version goes once the retention after the deletion has passed", () => {
    const item = { currentVersionId: "v3", deletedAtSource: at(25) };
    const rule = { retentionDays: 30, archiving: false };
    expect(prunableVersions(item, versions, rule, now(54))).toEqual(["v1", "v2"]);
    expect(prunableVersions(item, versions, rule, now(56))).toEqual(["v1", "v2", "v3"]);
  });

  test("when deleted items are archived, then the last version stays for ever", () => {
    const item = { currentVersionId: "v3", deletedAtSource: at(25) };
    expect(prunableVersions(item, versions, { retentionDays: 30, archiving: true }, now(10_000))).toEqual([
      "v1",
      "v2",
    ]);
  });

  test("when versions come in any order, then their capture order decides", () => {
    const item = { currentVersionId: "v3", deletedAtSource: null };
    const shuffled = [versions[2]!, versions[0]!, versions[1]!];
    expect(prunableVersions(item, shuffled, { retentionDays: 30, archiving: false }, now(41))).toEqual([
      "v1",
    ]);
  });
});
