/**
 * What `firebase deploy` deploys, checked against the product's own lists: every Firestore database the
 * product uses (the global one and one per region) gets the deny-all rules and the indexes.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { REGION_IDS, regionDatabaseId } from "../contracts/src/regions";
import { ROOT } from "./ports";

interface FirestoreTarget {
  database?: string;
  rules?: string;
  indexes?: string;
}

const firebaseJson = JSON.parse(readFileSync(resolve(ROOT, "firebase.json"), "utf8")) as {
  firestore: FirestoreTarget | FirestoreTarget[];
};

/** Every database the product reads or writes: routing data in (default), each region's data in its own. */
const DATABASES = ["(default)", ...REGION_IDS.map((regionId) => regionDatabaseId(regionId))];

test("when Firestore is deployed, then every database of the product gets the rules and the indexes", () => {
  const targets = Array.isArray(firebaseJson.firestore) ? firebaseJson.firestore : [firebaseJson.firestore];
  const byDatabase = new Map(targets.map((target) => [target.database ?? "(default)", target]));
  const uncovered = DATABASES.filter((database) => {
    const target = byDatabase.get(database);
    return target?.rules !== "firestore.rules" || target.indexes !== "firestore.indexes.json";
  });
  expect(uncovered).toEqual([]);
  expect([...byDatabase.keys()].sort()).toEqual([...DATABASES].sort());
});

test("when the rules are read, then they deny every client read and write, and allow nothing else", () => {
  const rules = readFileSync(resolve(ROOT, "firestore.rules"), "utf8").replace(/\/\/.*$/gm, "");
  const allows = [...rules.matchAll(/allow\s+([^;]+);/g)].map((match) =>
    match[1]!.replace(/\s+/g, " ").trim(),
  );
  expect(allows).toEqual(["read, write: if false"]);
  expect(rules).toMatch(/match \/\{document=\*\*\}/);
});
