/**
 * The organisations module's documents as its repository writes them decode and read back as written: the
 * routing and the domain claim (global database) and the account (region database). An organisation that
 * does not decode is left out of a region's walk and fails a read with its kind and path.
 */
import { logger } from "firebase-functions";
import { globalDb } from "../lib/firebase";
import { tenantDb } from "../lib/tenancy";
import { memoryDatabases } from "../testing/memory-firestore";
import { undecodedDocuments } from "../testing/stored-kinds";
import { ORGANIZATION_ACCOUNT } from "./documents";
import {
  INITIAL_ACCOUNT,
  claimDomain,
  ensureAccount,
  getOrganization,
  organizationOfDomain,
  organizationsIn,
  readAccount,
  writeAccount,
  type Organization,
} from "./repo";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const organization: Organization = {
  ...INITIAL_ACCOUNT,
  organizationId: "org-1",
  domain: "example.test",
  regionId: "ch",
  subscriptionId: "sub-1",
  createdAt: "2026-03-01T10:00:00.000Z",
  createdBy: "uid-1",
  adminEmail: "admin@example.test",
};
const scope = { organizationId: "org-1", regionId: "ch" } as const;

beforeEach(() => jest.spyOn(logger, "error").mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

async function walk(): Promise<string[]> {
  const found: string[] = [];
  for await (const each of organizationsIn("ch")) found.push(each.organizationId);
  return found;
}

test("when an organisation is set up and its account changed, then they read back as written", async () => {
  expect(await claimDomain(organization)).toEqual({ organization, created: true });
  await ensureAccount(scope);
  expect(await readAccount(scope)).toEqual(INITIAL_ACCOUNT);
  const graceful = {
    state: "started" as const,
    startedAt: "2026-03-02T00:00:00.000Z",
    stopsAt: "2026-03-09T00:00:00.000Z",
  };
  await tenantDb(scope).runTransaction(async (transaction) => {
    writeAccount(transaction, scope, {
      planId: "geneva",
      seats: 12,
      graceful,
      billingSubscriptionId: "sub_1",
    });
  });
  const account = {
    ...INITIAL_ACCOUNT,
    planId: "geneva" as const,
    seats: 12,
    graceful,
    billingSubscriptionId: "sub_1",
  };
  expect(await readAccount(scope)).toEqual(account);
  expect(await getOrganization("org-1")).toEqual({ ...organization, ...account });
  expect(await organizationOfDomain("example.test")).toEqual({ ...organization, ...account });
  expect(await walk()).toEqual(["org-1"]);
  expect(await claimDomain({ ...organization, organizationId: "org-2" })).toMatchObject({ created: false });
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});

test("when an organisation does not decode, then a region's walk leaves it out and reading it fails", async () => {
  await globalDb().collection("organizations").doc("org-0").set({ organizationId: "org-0", regionId: "ch" });
  expect(await walk()).toEqual(["org-1"]);
  await expect(getOrganization("org-0")).rejects.toMatchObject({
    name: "StoredDocumentError",
    kind: "organisation",
    path: "organizations/org-0",
  });
  await globalDb().collection("organizations").doc("org-0").delete();
});

test("when an account names a plan no longer offered or lacks later fields, then it reads as the code always read it", () => {
  const stored = { account: { planId: "everest", seats: 40, billingSubscriptionId: "" } };
  expect(ORGANIZATION_ACCOUNT.decode(stored, "org-1")).toEqual({
    success: true,
    value: { account: { ...INITIAL_ACCOUNT, seats: 40 } },
  });
  expect(ORGANIZATION_ACCOUNT.decode({ account: { seats: -1 } }, "org-1")).toEqual({
    success: false,
    fields: ["account.seats"],
  });
});
