import { DEMO_GOOGLE_USER } from "../contracts/src/local";
import { DEMO_ORGANISATION_SUMMARY, numericId } from "../emulators/workspace/src/index";

describe("the demo identity", () => {
  test("when the web's demo sign-in is used, then it is the demo Workspace's super admin, with their Directory id", () => {
    expect(DEMO_GOOGLE_USER.email).toBe(DEMO_ORGANISATION_SUMMARY.superAdmin.email);
    expect(DEMO_GOOGLE_USER.displayName).toBe(DEMO_ORGANISATION_SUMMARY.superAdmin.name);
    expect(DEMO_GOOGLE_USER.sub).toBe(numericId(`user:${DEMO_GOOGLE_USER.email}`));
  });
});
