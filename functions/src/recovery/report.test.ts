/**
 * A recovery's report names every item it settled, and a restored file whose sharing Google refused to
 * re-apply says so on its line: to whom, as what, and Google's reason. Over the in-memory Firestore.
 */
import { RECOVERY_ITEM_REASONS } from "@alpvault/contracts/recovery";
import { createRecovery, writeLedger } from "./repo";
import { recoveryReport } from "./service";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const scope = { organizationId: "org-1", regionId: "ch" } as const;

test("when a restored file's sharing was partly refused, then its report line is restored with each refusal", async () => {
  const created = await createRecovery(
    scope,
    {
      resourceId: "user-1",
      service: "drive",
      itemIds: ["f1", "f2"],
      location: "other",
      targetResourceId: "user-2",
      method: "folder",
      folderName: "Recovered",
      permissions: true,
      date: "03-01-2026",
    },
    "admin@example.test",
    new Date("2026-03-01T10:00:00.000Z"),
    { items: 2, bytes: 20 },
  );
  if (created.kind !== "created") throw new Error("not created");
  const { recoveryId } = created.recovery;
  const unshared = [
    { to: "anyone", role: "reader", reason: "sharingRateLimitExceeded" },
    { to: "partner.test", role: "writer", reason: "http-403" },
  ];
  await writeLedger(scope, recoveryId, "f1", { state: "done", targetId: "t1", name: "plan.txt", unshared });
  await writeLedger(scope, recoveryId, "f2", { state: "done", targetId: "t2", name: "notes.txt" });
  let report = "";
  for await (const line of await recoveryReport(scope, recoveryId)) report += line;
  expect(report.split("\r\n")).toEqual([
    "item,name,outcome,reason",
    `f1,plan.txt,restored,${RECOVERY_ITEM_REASONS.sharingNotReapplied(unshared)}`,
    "f2,notes.txt,restored,",
    "",
  ]);
  expect(RECOVERY_ITEM_REASONS.sharingNotReapplied(unshared)).toBe(
    "Restored; sharing not re-applied: anyone as reader (sharingRateLimitExceeded); partner.test as writer (http-403)",
  );
});
