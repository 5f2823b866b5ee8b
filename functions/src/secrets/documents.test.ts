/**
 * Secrets as their repository writes them decode and read back as written; one that does not decode is
 * left out of the list and fails a read with its kind and path.
 */
import { logger } from "firebase-functions";
import { regionDb } from "../lib/firebase";
import { tenantDb } from "../lib/tenancy";
import { memoryDatabases } from "../testing/memory-firestore";
import { undecodedDocuments } from "../testing/stored-kinds";
import { createSecret, getSecret, listSecrets, updateSecret } from "./repo";

jest.mock("../lib/firebase", () =>
  jest
    .requireActual<typeof import("../testing/memory-firestore")>("../testing/memory-firestore")
    .memoryFirebase(),
);

const scope = { organizationId: "org-1", regionId: "ch" } as const;
const at = "2026-03-01T10:00:00.000Z";

beforeEach(() => jest.spyOn(logger, "error").mockImplementation(() => undefined));
afterEach(() => jest.restoreAllMocks());

test("when a secret is created and checked, then it reads back as written", async () => {
  const secret = {
    secretId: "secret-1",
    description: "Customer key",
    kmsResourceName: "projects/p/locations/l/keyRings/r/cryptoKeys/k",
    isDefault: true,
    lastCheck: null,
    createdAt: at,
    createdBy: "admin@example.test",
    updatedAt: at,
  };
  await tenantDb(scope).runTransaction(async (transaction) => createSecret(transaction, scope, secret));
  const lastCheck = { health: "disabled" as const, message: "The key is disabled.", checkedAt: at };
  await tenantDb(scope).runTransaction(async (transaction) =>
    updateSecret(transaction, scope, "secret-1", { lastCheck }),
  );
  expect(await getSecret(scope, "secret-1")).toEqual({ ...secret, lastCheck });
  expect(await listSecrets(scope)).toEqual([{ ...secret, lastCheck }]);
  expect(undecodedDocuments(memoryDatabases)).toEqual([]);
});

test("when a secret does not decode, then the list leaves it out and reading it fails with its kind and path", async () => {
  const secrets = regionDb("region-ch").collection("organizations").doc("org-1").collection("secrets");
  await secrets.doc("broken").set({ description: "Old key", lastCheck: { health: "fine" } });
  expect((await listSecrets(scope)).map((secret) => secret.secretId)).toEqual(["secret-1"]);
  await expect(getSecret(scope, "broken")).rejects.toMatchObject({
    kind: "secret",
    path: "organizations/org-1/secrets/broken",
    fields: ["kmsResourceName", "lastCheck.health", "lastCheck.checkedAt"],
  });
});
