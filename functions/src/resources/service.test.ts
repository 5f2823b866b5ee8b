import type { Resource } from "@alpvault/contracts/organizations";
import { DomainError } from "../lib/errors";
import { parseResourcesQuery, selectResources } from "./service";

function resource(name: string, overrides: Partial<Resource> = {}): Resource {
  return {
    resourceId: `r-${name}`,
    type: "email",
    name,
    email: `${name.toLowerCase()}@x.test`,
    status: "active",
    policyId: null,
    policyName: null,
    protected: false,
    lastBackupAt: null,
    nextBackupAt: null,
    mailBackupBytes: 0,
    driveBackupBytes: 0,
    calendarBackupBytes: 0,
    contactsBackupBytes: 0,
    activeBackup: null,
    lastBackupFailure: null,
    services: {},
    lastVerifiedAt: null,
    integrity: null,
    ...overrides,
  };
}

const resources = [
  resource("Zoe", { protected: true, policyId: "p1", mailBackupBytes: 10 }),
  resource("anna"),
  resource("Finance", { type: "shared_drive", email: null, driveBackupBytes: 50 }),
  resource("Émile", { status: "suspended" }),
];

describe("resources list", () => {
  test("when sorted by name, then case and accents do not split the order", () => {
    const page = selectResources(resources, parseResourcesQuery({}));
    expect(page.resources.map((r) => r.name)).toEqual(["anna", "Émile", "Finance", "Zoe"]);
  });

  test("when filtered by protection, policy, type and search, then only matches remain", () => {
    const select = (query: Record<string, string>) =>
      selectResources(resources, parseResourcesQuery(query)).resources.map((r) => r.name);
    expect(select({ protection: "protected" })).toEqual(["Zoe"]);
    expect(select({ policyId: "p1" })).toEqual(["Zoe"]);
    expect(select({ type: "shared_drive" })).toEqual(["Finance"]);
    expect(select({ search: "ANNA@X" })).toEqual(["anna"]);
    expect(select({ sort: "storage", direction: "desc" })).toEqual(["Finance", "Zoe", "anna", "Émile"]);
  });

  test("when a parameter is malformed or repeated, then it is invalid, naming it", () => {
    for (const query of [
      { page: "0" },
      { pageSize: "500" },
      { type: "x" },
      { sort: "size" },
      { type: ["email", "x"] },
    ]) {
      expect(() => parseResourcesQuery(query)).toThrow(DomainError);
    }
    try {
      parseResourcesQuery({ direction: "up" });
    } catch (error) {
      expect((error as DomainError).kind).toBe("invalid");
      expect((error as DomainError).message).toContain("'direction'");
    }
  });
});
