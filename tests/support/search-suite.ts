/**
 * Searching backups through the API (docs/requirements.md#screens-and-navigation, #data-the-console-shows,
 * #validation): the search card's validation texts again on the server, results from the catalog of a real
 * backup (mail and Drive, paged, keyword on whole words, a date showing what the backups held that day),
 * deleted messages found, the audit entry, and tenant isolation. Run for a catalog of each format
 * (docs/backup-format.md §9): version 2's pages, order and totals are version 1's.
 */
import type { AuditPage } from "@alpvault/contracts/audit";
import { SEARCH_MESSAGES, type MailSearchResult, type SearchResponse } from "@alpvault/contracts/search";
import { testMessage } from "../../emulators/workspace/src/index";
import {
  assignDefaultPolicy,
  backupNow,
  finishedRun,
  organizationWithData,
  runsOf,
  today,
} from "./backup-runs";
import type { ApiCaller } from "./organizations";
import { onboarded, withRegionDb } from "./organizations";
import { workspaceAdmin } from "./workspace";
import { termsBody } from "./requests";

import { useCatalogFormat2 } from "./catalog-format";

/** The search suite over a catalog written in `format`. */
export function describeSearchSuite(format: 1 | 2): void {
  type MailSearchResponse = Extract<SearchResponse, { service: "gmail" }>;

  /** MM-DD-YYYY of a date. */
  const cardDate = (date: Date) =>
    `${String(date.getUTCMonth() + 1).padStart(2, "0")}-${String(date.getUTCDate()).padStart(2, "0")}-${date.getUTCFullYear()}`;

  let setup: Awaited<ReturnType<typeof organizationWithData>>;
  let search: (query: Record<string, string>) => ReturnType<ApiCaller>;

  beforeAll(async () => {
    setup = await organizationWithData(12);
    if (format === 2) await useCatalogFormat2(setup.organization);
    await assignDefaultPolicy(setup.call, setup.organization, setup.resource.resourceId);
    const [run] = await runsOf(setup.organization, setup.resource.resourceId);
    expect(await finishedRun(setup.organization, setup.resource.resourceId, run!.runId)).toMatchObject({
      state: "succeeded",
    });
    search = (query) =>
      setup.call(`/organizations/${setup.organization.organizationId}/search`, {
        method: "POST",
        body: termsBody(query),
      });
  });

  test("when the query breaks the search card's rules, then the API answers 400 with the card's texts", async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, SEARCH_MESSAGES.resourceRequired],
      [{ resource: "  " }, SEARCH_MESSAGES.resourceRequired],
      [{ resource: "ab" }, SEARCH_MESSAGES.resourceTooShort],
      [{ resource: setup.workspace.user, date: "2026-11-22" }, SEARCH_MESSAGES.invalidDate],
      [{ resource: setup.workspace.user, date: "02-30-2026" }, SEARCH_MESSAGES.invalidDate],
      [{ resource: setup.workspace.user, date: "12-31-2099" }, SEARCH_MESSAGES.futureDate],
      [{ resource: setup.workspace.user, keyword: "ab" }, SEARCH_MESSAGES.keywordTooShort],
      [{ resource: setup.workspace.user, keyword: "figures!" }, SEARCH_MESSAGES.keywordCharacters],
      [{ resource: setup.workspace.user, service: "chat" }, SEARCH_MESSAGES.unknownService],
    ];
    for (const [query, message] of cases) {
      expect(await search(query)).toMatchObject({ status: 400, body: { code: 400, message } });
    }
    // Longer than Firestore indexes a value (1,500 bytes): in characters, and in UTF-8 bytes only.
    for (const resource of ["nobody@nowhere.test", `${"x".repeat(2_000)}@nowhere.test`, "ü".repeat(800)]) {
      expect(await search({ resource })).toMatchObject({
        status: 404,
        body: { code: 404, message: SEARCH_MESSAGES.resourceNotFound },
      });
    }
    expect((await search({ resource: setup.workspace.user, pageSize: "500" })).status).toBe(400);
  });

  test("when the terms are not a body of strings and page numbers, or come in the URL, then the search is refused and nothing is searched", async () => {
    const path = `/organizations/${setup.organization.organizationId}/search`;
    const cases: [unknown, string][] = [
      [[setup.workspace.user], "The request body must be an object."],
      [{ resource: setup.workspace.user, keyword: ["budget"] }, "keyword must be a string."],
      [{ resource: 42 }, "resource must be a string."],
      [{ resource: setup.workspace.user, page: "2" }, "page must be a whole number."],
      [{ resource: setup.workspace.user, pageSize: 2.5 }, "pageSize must be a whole number."],
      [
        { resource: setup.workspace.user, query: "budget" },
        "The request body has a field this call does not take.",
      ],
    ];
    for (const [body, message] of cases) {
      expect(await setup.call(path, { method: "POST", body })).toMatchObject({
        status: 400,
        body: { code: 400, message },
      });
    }
    // The terms of a search are never read from a URL: there is no such route.
    const inUrl = await setup.call(`${path}?${new URLSearchParams({ resource: setup.workspace.user })}`);
    expect(inUrl.status).toBe(404);
    expect(JSON.stringify(inUrl.body)).not.toContain(setup.workspace.user);
  });

  test("when a mailbox is searched without a keyword, then every backed-up message is listed newest first, paged, with subject, sender parsed, recipients and date", async () => {
    const first = await search({ resource: setup.workspace.user, pageSize: "5" });
    expect(first.status).toBe(200);
    const page = first.body as SearchResponse;
    expect(page).toMatchObject({
      service: "gmail",
      total: 12,
      page: 1,
      pageSize: 5,
      resource: { resourceId: setup.resource.resourceId, email: setup.workspace.user },
    });
    expect(page.results).toHaveLength(5);
    const all: MailSearchResult[] = [];
    for (const number of [1, 2, 3]) {
      all.push(
        ...(
          (await search({ resource: setup.workspace.user, pageSize: "5", page: String(number) }))
            .body as MailSearchResponse
        ).results,
      );
    }
    expect(all).toHaveLength(12);
    expect(new Set(all.map((result) => result.itemId))).toEqual(new Set(setup.raws.keys()));
    const mail = all;
    const dates = mail.map((result) => result.date);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(mail[0]).toMatchObject({
      subject: expect.stringMatching(/^Quarterly figures \d+ /),
      to: [setup.workspace.user],
      deletedAtSource: null,
    });
    expect(mail[0]!.fromEmail).toMatch(/@/);
    // Found by the name as well as by the email.
    const byName = (await search({ resource: setup.resource.name, pageSize: "1" })).body as SearchResponse;
    expect(byName.total).toBe(12);
  });

  /** Every page of a search, each asked for by the previous page's token: the answers in order. */
  async function pagesByToken(query: Record<string, string>): Promise<SearchResponse[]> {
    const answers: SearchResponse[] = [];
    let pageToken: string | null = null;
    do {
      const page = String(answers.length + 1);
      const answer = await search({ ...query, page, ...(pageToken ? { pageToken } : {}) });
      expect(answer.status).toBe(200);
      answers.push(answer.body as SearchResponse);
      pageToken = (answer.body as SearchResponse).nextPageToken;
    } while (pageToken && answers.length < 20);
    return answers;
  }

  test("when the next pages are asked for by their tokens, then each goes on where the previous ended, every item once, in order; a token of another search or page is refused", async () => {
    const query = { resource: setup.workspace.user, pageSize: "5" };
    const byToken = await pagesByToken(query);
    expect(byToken.map((answer) => answer.results.length)).toEqual([5, 5, 2]);
    expect(byToken.every((answer) => answer.total === 12 && !answer.totalAtLeast)).toBe(true);
    expect(byToken[2]!.nextPageToken).toBeNull();
    const byNumber: string[] = [];
    for (const page of ["1", "2", "3"]) {
      byNumber.push(
        ...((await search({ ...query, page })).body as SearchResponse).results.map((r) => r.itemId),
      );
    }
    expect(byToken.flatMap((answer) => answer.results.map((result) => result.itemId))).toEqual(byNumber);

    // Several words: the total is what was read so far, a lower bound until the last page.
    const twoWords = await pagesByToken({ ...query, keyword: "quarterly figures" });
    expect(twoWords.flatMap((answer) => answer.results.map((result) => result.itemId)).sort()).toEqual(
      [...byNumber].sort(),
    );
    expect(twoWords.at(-1)).toMatchObject({ total: 12, totalAtLeast: false, nextPageToken: null });
    expect(twoWords[0]!.totalAtLeast).toBe(true);

    const second = byToken[0]!.nextPageToken as string;
    expect(await search({ ...query, keyword: "quarterly", page: "2", pageToken: second })).toMatchObject({
      status: 400,
      body: { code: 400, message: "The page token belongs to another search: search again" },
    });
    expect(await search({ ...query, page: "3", pageToken: second })).toMatchObject({
      status: 400,
      body: { code: 400, message: "The page token leads to another page than the one asked for" },
    });
    for (const pageToken of [
      "not a token",
      Buffer.from('{"v":1}').toString("base64url"),
      "x".repeat(2_000),
    ]) {
      expect(await search({ ...query, page: "2", pageToken })).toMatchObject({
        status: 400,
        body: { code: 400, message: "The page token is not valid: search again" },
      });
    }
  });

  test("when a keyword is given, then only items with every one of its words match, in mail and in Drive", async () => {
    const one = (await search({ resource: setup.workspace.user, keyword: "figures 11" }))
      .body as SearchResponse;
    expect(one.total).toBe(1);
    expect((one.results[0] as { subject: string }).subject).toMatch(/^Quarterly figures 11 /);
    const all = (await search({ resource: setup.workspace.user, keyword: "quarterly" }))
      .body as SearchResponse;
    expect(all.total).toBe(12);
    expect(
      (
        (await search({ resource: setup.workspace.user, keyword: "nothing-like-this" }))
          .body as SearchResponse
      ).total,
    ).toBe(0);

    const drive = (await search({ resource: setup.workspace.user, service: "drive", keyword: "budget" }))
      .body as SearchResponse;
    expect(drive).toMatchObject({ service: "drive", total: 1 });
    expect(drive.results[0]).toMatchObject({
      name: "budget.txt",
      googleId: setup.file.id,
      size: setup.file.bytes.length,
      deletedAtSource: null,
    });
    expect(typeof (drive.results[0] as { currentVersion: string }).currentVersion).toBe("string");
  });

  test("when a message is deleted at the source and backed up again, then it is still found, marked deleted; a date before the deletion shows it as held then", async () => {
    const [gone] = [...setup.raws.keys()];
    await workspaceAdmin("DELETE", `/users/${setup.workspace.user}/gmail/messages/${gone}`);
    const late = testMessage({
      subject: "Arrived later",
      to: setup.workspace.user,
      messageId: `late.${setup.organization.organizationId}@x.test`,
    });
    // A sender whose clock runs three days ahead: dated after the day it is backed up.
    const ahead = testMessage({
      subject: "Dated ahead",
      to: setup.workspace.user,
      messageId: `ahead.${setup.organization.organizationId}@x.test`,
      date: new Date(Date.now() + 3 * 24 * 3600 * 1000),
    });
    for (const raw of [late, ahead]) {
      await workspaceAdmin("POST", `/users/${setup.workspace.user}/gmail/messages`, {
        raw: raw.toString("base64"),
        encoding: "base64",
      });
    }
    const started = (await backupNow(setup.call, setup.organization, setup.resource.resourceId)).body as {
      runId: string;
    };
    expect(await finishedRun(setup.organization, setup.resource.resourceId, started.runId)).toMatchObject({
      state: "succeeded",
    });

    const now = (await search({ resource: setup.workspace.user, pageSize: "100" })).body as SearchResponse;
    expect(now.total).toBe(14);
    const deleted = (now.results as { itemId: string; deletedAtSource: string | null }[]).find(
      (result) => result.itemId === gone,
    );
    expect(deleted?.deletedAtSource).not.toBeNull();

    // Today: what the backups hold at the end of the day — the deleted message is gone from it, the late one
    // and the one dated ahead are in, the latter first (newest first), on a page of its own and on the next.
    const todayView = (
      await search({ resource: setup.workspace.user, date: cardDate(new Date()), pageSize: "100" })
    ).body as MailSearchResponse;
    expect(todayView.total).toBe(13);
    expect(todayView.results).toHaveLength(13);
    expect(todayView.results.map((result) => result.itemId)).not.toContain(gone);
    expect(todayView.results[0]?.subject).toBe("Dated ahead");
    const pages = await Promise.all(
      ["1", "2", "3"].map(
        async (page) =>
          (
            (
              await search({
                resource: setup.workspace.user,
                date: cardDate(new Date()),
                pageSize: "5",
                page,
              })
            ).body as MailSearchResponse
          ).results,
      ),
    );
    expect(pages.flat().map((result) => result.itemId)).toEqual(
      todayView.results.map((result) => result.itemId),
    );
    // Yesterday: nothing was backed up yet.
    const yesterday = new Date(Date.now() - 24 * 3600 * 1000);
    expect(
      ((await search({ resource: setup.workspace.user, date: cardDate(yesterday) })).body as SearchResponse)
        .total,
    ).toBe(0);
  });

  test("when a search is made, then it is audited without its keyword; another organisation's admin finds nothing", async () => {
    await search({ resource: setup.workspace.user, keyword: "quarterly" });
    const audit = await setup.call(
      `/organizations/${setup.organization.organizationId}/audit-logs?start=${today()}&end=${today()}&pageSize=100`,
    );
    const searched = (audit.body as AuditPage).entries.filter(
      (entry) => entry.operation === "backup-item.searched",
    );
    expect(searched.length).toBeGreaterThan(0);
    expect(searched[0]).toMatchObject({
      actor: setup.workspace.admin,
      object: `Gmail of ${setup.workspace.user}`,
    });
    expect(JSON.stringify(searched)).not.toContain("quarterly");

    const other = await onboarded();
    const answer = await other.call(`/organizations/${setup.organization.organizationId}/search`, {
      method: "POST",
      body: { resource: setup.workspace.user },
    });
    expect([403, 404]).toContain(answer.status);
    expect(JSON.stringify(answer.body)).not.toContain("Quarterly");
  });

  if (format === 2)
    test("when the catalog is of format version 2, then none of its items, versions or folders holds a subject, a file name or an address", async () => {
      const regionId = setup.organization.subscriptions[0]?.region.id ?? "ch";
      const stored = await withRegionDb(`region-${regionId}`, async (db) => {
        const resource = db
          .collection("organizations")
          .doc(setup.organization.organizationId)
          .collection("resources")
          .doc(setup.resource.resourceId);
        const items = await resource.collection("items").get();
        const versions = await Promise.all(items.docs.map((doc) => doc.ref.collection("versions").get()));
        const folders = await resource.collection("folders").get();
        return [...items.docs, ...versions.flatMap((page) => page.docs), ...folders.docs].map((doc) =>
          JSON.stringify({ id: doc.id, ...doc.data() }).toLowerCase(),
        );
      });
      expect(stored.length).toBeGreaterThan(12);
      for (const text of stored) {
        for (const clear of [
          "quarterly",
          "figures",
          "budget",
          setup.workspace.user.toLowerCase(),
          "my drive",
        ]) {
          expect(text).not.toContain(clear);
        }
      }
    });
}
