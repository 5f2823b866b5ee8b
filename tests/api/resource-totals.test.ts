/**
 * The resources screen's analytics, the stored bytes a backup checks against the plan and the active
 * mailboxes a subscription counts come from aggregation queries on the stack's Firestore: the same figures
 * as reading every resource would give, without reading any.
 */
import { randomBytes } from "node:crypto";
import { getApps, initializeApp } from "firebase-admin/app";
import { Query, getFirestore } from "firebase-admin/firestore";
import {
  activeMailboxes,
  analytics,
  backupBytes,
  listResources,
  storedBackupBytes,
} from "../../functions/src/resources/service";
import { stackEnv } from "../support/stack-env";

jest.setTimeout(60_000);

if (getApps().length === 0) initializeApp({ projectId: stackEnv.projectId });

const RESOURCES: Record<string, Record<string, unknown>> = {
  "user-active": {
    type: "email",
    status: "active",
    protected: true,
    mailBackupBytes: 100,
    driveBackupBytes: 5,
  },
  "user-suspended": { type: "email", status: "suspended", protected: false, mailBackupBytes: 50 },
  "user-deleted": {
    type: "email",
    status: "deleted",
    protected: true,
    mailBackupBytes: 1000,
    driveBackupBytes: 1,
  },
  "drive-team": { type: "shared_drive", status: "active", protected: true, driveBackupBytes: 7 },
  // No status: reads as active.
  "user-new": { type: "email", protected: false, mailBackupBytes: 0, driveBackupBytes: 0 },
};

describe("resource totals", () => {
  test("when an organisation has active, suspended, deleted and unmarked resources, then its analytics, stored bytes and active mailboxes equal what reading every resource gives, and no resource is read", async () => {
    const organizationId = `org-totals-${randomBytes(5).toString("hex")}`;
    const scope = { organizationId, regionId: "ch" as const };
    const organization = getFirestore("region-ch").collection("organizations").doc(organizationId);
    for (const [id, fields] of Object.entries(RESOURCES)) {
      await organization
        .collection("resources")
        .doc(id)
        .set({ name: id, email: `${id}@example.com`, ...fields });
    }

    const queries = jest.spyOn(Query.prototype, "get");
    const figures = await analytics(scope);
    const stored = await storedBackupBytes(scope);
    const mailboxes = await activeMailboxes(scope);
    expect(queries).not.toHaveBeenCalled();
    queries.mockRestore();

    expect(figures).toMatchObject({
      protectedResources: 2,
      totalResources: 4,
      totalBackupBytes: 162,
      protectionStatus: "unprotected",
    });
    expect(stored).toBe(1163);
    expect(mailboxes).toBe(2);

    // The same figures from every resource read and decoded.
    const all = await listResources(scope);
    const kept = all.filter((resource) => resource.status !== "deleted");
    expect(figures.protectedResources).toBe(kept.filter((resource) => resource.protected).length);
    expect(figures.totalResources).toBe(kept.length);
    expect(figures.totalBackupBytes).toBe(kept.reduce((sum, resource) => sum + backupBytes(resource), 0));
    expect(stored).toBe(all.reduce((sum, resource) => sum + backupBytes(resource), 0));
    expect(mailboxes).toBe(
      all.filter((resource) => resource.type === "email" && resource.status === "active").length,
    );
  });

  test("when every resource not deleted is protected, then the organisation is compliant", async () => {
    const organizationId = `org-totals-${randomBytes(5).toString("hex")}`;
    const organization = getFirestore("region-ch").collection("organizations").doc(organizationId);
    await organization
      .collection("resources")
      .doc("a")
      .set({ name: "a", type: "email", status: "active", protected: true });
    await organization
      .collection("resources")
      .doc("b")
      .set({ name: "b", type: "email", status: "deleted", protected: false });
    expect(await analytics({ organizationId, regionId: "ch" })).toMatchObject({
      protectedResources: 1,
      totalResources: 1,
      protectionStatus: "compliant",
    });
  });
});
