/**
 * The dispatcher's runs and the Google quota days as the system repository writes them (by increments)
 * decode and read back as counted.
 */
import { memoryDatabases } from "../testing/memory-firestore";
import { undecodedDocuments } from "../testing/stored-kinds";
import { addGoogleUnitsSpent, googleUnitsSpent, recordDispatcherRun } from "./repo";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

test("when dispatchers run and units are spent, then the counts read back", async () => {
  expect(await recordDispatcherRun("ch", "2026-03-01T10:00:00.000Z")).toEqual({
    lastRunAt: "2026-03-01T10:00:00.000Z",
    runs: 1,
  });
  await recordDispatcherRun("eu", "2026-03-01T10:00:00.000Z");
  expect(await recordDispatcherRun("ch", "2026-03-01T10:10:00.000Z")).toEqual({
    lastRunAt: "2026-03-01T10:10:00.000Z",
    runs: 3,
  });
  expect(await googleUnitsSpent("gmail", "2026-03-01")).toBe(0);
  await addGoogleUnitsSpent("gmail", "2026-03-01", 50);
  await addGoogleUnitsSpent("gmail", "2026-03-01", 25);
  expect(await googleUnitsSpent("gmail", "2026-03-01")).toBe(75);
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});
