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

describe("retention from the versions' endings", () => {
  const ended = (endedAt: (string | null)[]) =>
    versions.map((version, index) => ({ ...version, endedAt: endedAt[index] ?? null }));

  test("when an item exists, then its current version (ended: null) is kept for ever and older ones for the retention after their end, without the item's state", () => {
    const stored = ended([at(10), at(20), null]);
    const rule = { retentionDays: 30, archiving: false };
    expect(prunableVersions(undefined, stored, rule, now(39))).toEqual([]);
    expect(prunableVersions(undefined, stored, rule, now(41))).toEqual(["v1"]);
    expect(prunableVersions(undefined, stored, rule, now(10_000))).toEqual(["v1", "v2"]);
  });

  test("when an item was deleted at the source and archiving is off, then its last version goes once the retention after the deletion has passed, and the item with it", () => {
    const stored = ended([at(10), at(20), at(25)]);
    const rule = { retentionDays: 30, archiving: false };
    expect(prunableVersions(undefined, stored, rule, now(54))).toEqual(["v1", "v2"]);
    expect(prunableVersions(undefined, stored, rule, now(56))).toEqual(["v1", "v2", "v3"]);
  });

  test("when deleted items are archived, then the version that ended last (the deletion) stays for ever", () => {
    const stored = ended([at(10), at(20), at(25)]);
    expect(prunableVersions(undefined, stored, { retentionDays: 30, archiving: true }, now(10_000))).toEqual([
      "v1",
      "v2",
    ]);
  });

  test("when a version that is not the current one still says it is current (an interrupted run), then it is kept", () => {
    const stored = ended([null, at(20), null]);
    expect(prunableVersions(undefined, stored, { retentionDays: 30, archiving: false }, now(10_000))).toEqual(
      ["v2"],
    );
  });

  test("when a version was written before versions said when they ended, then the item's state decides, and without it everything is kept", () => {
    const stored = [
      { ...versions[0]! },
      { ...versions[1]!, endedAt: at(20) },
      { ...versions[2]!, endedAt: null },
    ];
    const rule = { retentionDays: 30, archiving: false };
    expect(prunableVersions(undefined, stored, rule, now(10_000))).toEqual([]);
    expect(
      prunableVersions({ currentVersionId: "v3", deletedAtSource: null }, stored, rule, now(41)),
    ).toEqual(["v1"]);
  });
});
