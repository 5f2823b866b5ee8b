import { aResource, aSharedDrive } from "@/testing/fixtures/resources";
import { recoverAllOf } from "./recover-all";

describe("Recover all data", () => {
  it("when the resource is a user with no calendar backed up, then Gmail and Drive are offered, Gmail first", () => {
    expect(recoverAllOf(aResource({ calendarBackupBytes: 0, contactsBackupBytes: 0 }))).toEqual({
      resourceId: "user-ada",
      resourceName: "Ada Brunner (admin@alpvault-demo.test)",
      services: ["gmail", "drive"],
    });
  });

  it("when the user's calendars are backed up, then Calendar is offered as well", () => {
    expect(recoverAllOf(aResource({ calendarBackupBytes: 2048, contactsBackupBytes: 0 })).services).toEqual([
      "gmail",
      "drive",
      "calendar",
    ]);
  });

  it("when the user's calendars and contacts are backed up, then both are offered after Drive", () => {
    expect(recoverAllOf(aResource({ calendarBackupBytes: 2048, contactsBackupBytes: 512 })).services).toEqual(
      ["gmail", "drive", "calendar", "contacts"],
    );
  });

  it("when the resource is a shared drive, then only Drive is offered", () => {
    expect(recoverAllOf(aSharedDrive({ calendarBackupBytes: 2048, contactsBackupBytes: 512 }))).toMatchObject(
      {
        resourceName: "Finance",
        services: ["drive"],
      },
    );
  });
});
