/**
 * A search of several words reads the rarest word's items and checks the others on them; when the words
 * seldom meet, one request reads at most its scan limit of those items and answers what it found (maybe
 * nothing) with a token that goes on from the last item read (docs/api.md "Backups and search").
 *
 * Reads are the Firestore emulator's own count, so this runs on an emulator of its own (the stack's
 * scheduler reads its Firestore all the time).
 */
import { randomBytes } from "node:crypto";
import { findItems, type FoundPage } from "../../functions/src/search/find-items";
import type { PageToken } from "../../functions/src/search/page-token";
import { organizationRef } from "../../functions/src/lib/tenancy";
import type { CatalogVersion } from "../../functions/src/engine/runner/catalog";
import { itemOf } from "../../functions/src/engine/runner/catalog-items";
import { firestoreOfThisFile } from "../support/own-firestore";

jest.setTimeout(120_000);

const emulator = firestoreOfThisFile();
/** The reads the emulator billed since it started. */
const billedReads = () => emulator().reads?.snapshot().totals.billedReads ?? Number.NaN;

const HOUR = 3_600_000;
const NEWEST = Date.parse("2026-11-01T12:00:00.000Z");
const key = (index: number) => `m${String(index).padStart(4, "0")}`;

/**
 * 120 messages, newest first by index: "beta" in the odd ones (60), "alpha" in the even ones and in 5, 61
 * and 117 (63): "beta" is the rarer word, and only those three have both.
 */
async function mailbox() {
  const scope = { organizationId: `org-scan-${randomBytes(5).toString("hex")}`, regionId: "ch" } as const;
  const items = organizationRef(scope).collection("resources").doc("user-scan").collection("items");
  const batch = items.firestore.batch();
  for (let index = 0; index < 120; index += 1) {
    const keywords = [
      ...(index % 2 === 0 || [5, 61, 117].includes(index) ? ["alpha"] : []),
      ...(index % 2 === 1 ? ["beta"] : []),
    ];
    const date = new Date(NEWEST - index * HOUR).toISOString();
    const version: CatalogVersion = {
      versionId: `${key(index)}@v1`,
      itemKey: key(index),
      kind: "gmail-message",
      versionKey: "v1",
      contentKey: key(index),
      capturedAt: date,
      runId: "run-scan",
      size: 100,
      storedBytes: 100,
      contentDigest: "0".repeat(64),
      dataKeyId: "0".repeat(32),
      metadata: {},
      search: {
        kind: "mail",
        subject: keywords.join(" "),
        fromName: "",
        fromEmail: "",
        to: [],
        date,
        labels: [],
        size: 100,
        keywords,
      },
      formatVersion: 1,
      chunks: [],
    };
    // As the catalog writes an item for its first version.
    batch.set(items.doc(key(index)), itemOf(version, undefined));
  }
  await batch.commit();
  return { scope, resourceId: "user-scan" };
}

/** Every page by its token, with what each request billed. */
async function pages(scanLimit: number | undefined) {
  const { scope, resourceId } = await mailbox();
  const answers: { page: FoundPage; reads: number }[] = [];
  let token: PageToken | undefined;
  do {
    const before = billedReads();
    const page = await findItems(scope, resourceId, {
      kind: "gmail-message",
      words: ["alpha", "beta"],
      pageSize: 5,
      skip: 0,
      ...(token ? { token } : {}),
      ...(scanLimit === undefined ? {} : { scanLimit }),
    });
    answers.push({ page, reads: billedReads() - before });
    token = page.next
      ? {
          page: answers.length + 1,
          position: page.next,
          total: page.total,
          totalAtLeast: page.totalAtLeast,
        }
      : undefined;
  } while (token && answers.length < 50);
  return answers;
}

test("when two words seldom meet, then each request reads at most its scan limit, pages may stop short or come back empty with a token, and the pages together hold every match once, newest first", async () => {
  const answers = await pages(10);
  const found = answers.flatMap(({ page }) => page.items.map((item) => item.itemKey));
  expect(found).toEqual([key(5), key(61), key(117)]);
  // 60 "beta" messages read 10 at a time: six or seven requests, most of them empty.
  expect(answers.length).toBeGreaterThanOrEqual(6);
  expect(answers.some(({ page }) => page.items.length === 0 && page.next !== null)).toBe(true);
  // The limit's reads, the cursor's document, and on the first page the two words' counts.
  for (const { reads } of answers) expect(reads).toBeLessThanOrEqual(10 + 3);
  // The total is what the pages found so far: a lower bound until the last page.
  expect(answers.slice(0, -1).every(({ page }) => page.totalAtLeast)).toBe(true);
  expect(answers.map(({ page }) => page.total)).toEqual(
    answers.map((_, n) => answers.slice(0, n + 1).flatMap(({ page }) => page.items).length),
  );
  expect(answers.at(-1)?.page).toMatchObject({ total: 3, totalAtLeast: false, next: null });
});

test("when the words' items fit within the scan limit, then one request finds every match", async () => {
  const answers = await pages(undefined);
  expect(answers).toHaveLength(1);
  expect(answers[0]?.page.items.map((item) => item.itemKey)).toEqual([key(5), key(61), key(117)]);
  expect(answers[0]?.page).toMatchObject({ total: 3, totalAtLeast: false, next: null });
});
