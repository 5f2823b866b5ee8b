/**
 * Browsing a resource's backups at a point in time (docs/api.md "Browse"), in the running product: a
 * mailbox with a user label and a drive with nested folders, backed up by the worker, then browsed by label
 * and by folder, now and at a date, page by page; and every malformed query answered 4xx `{code, message}`.
 */
import { BROWSE_MESSAGES, type BrowseResponse } from "@alpvault/contracts/browse";
import { EXPORT_MESSAGES, type ExportJob } from "@alpvault/contracts/exports";
import type { DriveSearchResult, MailSearchResult } from "@alpvault/contracts/search";
import { testMessage } from "../../emulators/workspace/src/index";
import { onboarded } from "../support/organizations";
import {
  assignDefaultPolicy,
  backupNow,
  finishedRun,
  resourceOf,
  runsOf,
  searchDay,
} from "../support/backup-runs";
import { exportsOf } from "../support/exports";
import { workspaceAdmin } from "../support/workspace";
import { termsBody } from "../support/requests";

jest.setTimeout(180_000);

type Setup = Awaited<ReturnType<typeof onboarded>>;

describe("browsing a mailbox by label and a drive by folder", () => {
  let setup: Setup;
  let resourceId: string;
  const messageIds: Record<string, string> = {};

  const browse = async (query: string) => {
    const answer = await setup.call(
      `/organizations/${setup.organization.organizationId}/resources/${resourceId}/browse`,
      { method: "POST", body: termsBody(query) },
    );
    return answer;
  };
  const browsed = async (query: string) => {
    const answer = await browse(query);
    expect(answer.status).toBe(200);
    return answer.body as BrowseResponse;
  };
  const subjects = (answer: BrowseResponse) =>
    (answer.results as MailSearchResult[]).map((mail) => mail.subject);
  const names = (answer: BrowseResponse) => (answer.results as DriveSearchResult[]).map((file) => file.name);

  beforeAll(async () => {
    setup = await onboarded();
    const user = setup.workspace.user;
    const label = await workspaceAdmin<{ id: string }>("POST", `/users/${user}/gmail/labels`, {
      name: "Projects",
    });
    expect(label.status).toBe(200);
    const mails: [string, string[], string][] = [
      ["Kickoff notes", ["INBOX"], "2026-03-01T09:00:00Z"],
      ["Project plan", ["INBOX", label.body.id], "2026-03-02T09:00:00Z"],
      ["Archived budget", [label.body.id], "2026-03-03T09:00:00Z"],
    ];
    for (const [subject, labelIds, date] of mails) {
      const added = await workspaceAdmin<{ id: string }>("POST", `/users/${user}/gmail/messages`, {
        raw: testMessage({ subject, to: user, date: new Date(date) }).toString("base64"),
        encoding: "base64",
        labelIds,
      });
      expect(added.status).toBe(200);
      messageIds[subject] = added.body.id;
    }
    const file = async (name: string, mimeType: string, parentId?: string) => {
      const created = await workspaceAdmin<{ id: string }>("POST", `/users/${user}/drive/files`, {
        name,
        mimeType,
        ...(mimeType.startsWith("text/") ? { content: Buffer.from(`${name}\n`).toString("base64") } : {}),
        ...(parentId ? { parentId } : {}),
      });
      expect(created.status).toBe(200);
      return created.body.id;
    };
    const reports = await file("Reports", "application/vnd.google-apps.folder");
    const year = await file("2026", "application/vnd.google-apps.folder", reports);
    await file("summary.txt", "text/plain", reports);
    await file("q1.txt", "text/plain", year);
    await file("readme.txt", "text/plain");
    resourceId = (await resourceOf(setup.call, setup.organization, user)).resourceId;
    await assignDefaultPolicy(setup.call, setup.organization, resourceId);
    const [run] = await runsOf(setup.organization, resourceId);
    expect((await finishedRun(setup.organization, resourceId, run!.runId)).state).toBe("succeeded");
  });

  test("when the mailbox is browsed, then it lists Gmail's labels and the user's, and each label holds its messages, newest first", async () => {
    const all = await browsed("service=gmail");
    expect(all.labels.filter((label) => !label.system)).toEqual([
      { label: "Projects", name: "Projects", system: false },
    ]);
    expect(all.labels.find((label) => label.label === "INBOX")).toEqual({
      label: "INBOX",
      name: "Inbox",
      system: true,
    });
    expect(subjects(all)).toEqual(["Archived budget", "Project plan", "Kickoff notes"]);
    expect(all.total).toBe(3);
    expect(subjects(await browsed("service=gmail&label=INBOX"))).toEqual(["Project plan", "Kickoff notes"]);
    expect(subjects(await browsed("service=gmail&label=Projects"))).toEqual([
      "Archived budget",
      "Project plan",
    ]);
    expect((await browsed("service=gmail&label=SENT")).results).toEqual([]);
  });

  test("when a label is read one message a page, then its token leads through every message once", async () => {
    const seen: string[] = [];
    let token: string | null = null;
    for (let page = 1; page <= 3; page++) {
      const answer: BrowseResponse = await browsed(
        `service=gmail&label=Projects&pageSize=1&page=${page}${token ? `&pageToken=${encodeURIComponent(token)}` : ""}`,
      );
      seen.push(...subjects(answer));
      token = answer.nextPageToken;
      if (!token) break;
    }
    expect(seen).toEqual(["Archived budget", "Project plan"]);
    // A token of another label is refused.
    const first = await browsed("service=gmail&label=Projects&pageSize=1");
    const other = await browse(
      `service=gmail&label=INBOX&pageSize=1&page=2&pageToken=${encodeURIComponent(first.nextPageToken!)}`,
    );
    expect(other.status).toBe(400);
  });

  test("when the drive is browsed, then the top holds the roots, and each folder its sub-folders and its own files", async () => {
    const top = await browsed("service=drive");
    expect(top.folders).toEqual([{ name: "My Drive", path: "My Drive" }]);
    expect(top.results).toEqual([]);
    const root = await browsed("service=drive&folder=My%20Drive");
    expect(root.folders).toEqual([{ name: "Reports", path: "My Drive/Reports" }]);
    expect(names(root)).toEqual(["readme.txt"]);
    const reports = await browsed(`service=drive&folder=${encodeURIComponent("My Drive/Reports")}`);
    expect(reports.folders).toEqual([{ name: "2026", path: "My Drive/Reports/2026" }]);
    expect(names(reports)).toEqual(["summary.txt"]);
    const year = await browsed(`service=drive&folder=${encodeURIComponent("My Drive/Reports/2026")}`);
    expect(year.folders).toEqual([]);
    expect(names(year)).toEqual(["q1.txt"]);
    expect(year.foldersAtLeast).toBe(false);
  });

  test("when Export all is asked for a label or a folder, then the export holds what a browse of it shows, and says which", async () => {
    const exports = exportsOf(setup.call, setup.organization);
    const started = await exports.start({ resourceId, service: "gmail", format: "mbox", label: "Projects" });
    expect(started.status).toBe(202);
    const job = started.body as ExportJob;
    expect(job).toMatchObject({ within: "Projects", progress: { total: 2 } });
    expect(await exports.finished(job.exportId)).toMatchObject({
      state: "succeeded",
      within: "Projects",
      progress: { exported: 2, failed: 0 },
    });
    const mbox = (await exports.download(job.exportId)).bytes.toString("utf8");
    expect(mbox).toContain("Subject: Archived budget");
    expect(mbox).toContain("Subject: Project plan");
    expect(mbox).not.toContain("Subject: Kickoff notes");

    const files = await exports.start({
      resourceId,
      service: "drive",
      format: "zip",
      folder: "My Drive/Reports",
    });
    expect(files.status).toBe(202);
    expect(files.body).toMatchObject({ within: "My Drive/Reports", progress: { total: 1 } });
    expect(await exports.finished((files.body as ExportJob).exportId)).toMatchObject({
      state: "succeeded",
      progress: { exported: 1, failed: 0 },
    });

    for (const [body, message] of [
      [{ service: "gmail", label: "Nope" }, BROWSE_MESSAGES.invalidLabel],
      [{ service: "drive", format: "zip", label: "INBOX" }, EXPORT_MESSAGES.invalid],
      [{ service: "gmail", label: "INBOX", itemIds: ["18c0000000000000"] }, EXPORT_MESSAGES.invalid],
      [{ service: "drive", format: "zip", folder: "My Drive/Nowhere" }, EXPORT_MESSAGES.nothingToExport],
    ] as const) {
      expect(await exports.start({ resourceId, ...body })).toMatchObject({ status: 400, body: { message } });
    }
  });

  test("when a date is given, then only what the backups held at the end of that day is shown", async () => {
    // Nothing was backed up before today.
    const yesterday = await browsed(`service=gmail&date=${searchDay(-1)}`);
    expect(yesterday.results).toEqual([]);
    expect(yesterday.total).toBe(0);
    expect(yesterday.asOf).not.toBeNull();
    // A message deleted at Google today is no longer held at the end of today, but still in the backups.
    const user = setup.workspace.user;
    expect(
      (await workspaceAdmin("DELETE", `/users/${user}/gmail/messages/${messageIds["Kickoff notes"]}`)).status,
    ).toBeLessThan(300);
    const started = await backupNow(setup.call, setup.organization, resourceId);
    await finishedRun(setup.organization, resourceId, (started.body as { runId: string }).runId);
    expect(subjects(await browsed(`service=gmail&label=INBOX&date=${searchDay(0)}`))).toEqual([
      "Project plan",
    ]);
    const now = await browsed("service=gmail&label=INBOX");
    expect(subjects(now)).toEqual(["Project plan", "Kickoff notes"]);
    expect((now.results as MailSearchResult[])[1]?.deletedAtSource).not.toBeNull();
    expect(
      names(
        await browsed(`service=drive&folder=${encodeURIComponent("My Drive/Reports")}&date=${searchDay(-1)}`),
      ),
    ).toEqual([]);
  });

  test("when no service is given, then the mailbox's Gmail is browsed, and a label or a folder names its service", async () => {
    const first = await browsed("");
    expect(first.service).toBe("gmail");
    expect(subjects(first)).toEqual(["Archived budget", "Project plan", "Kickoff notes"]);
    expect((await browsed("label=Projects")).service).toBe("gmail");
    const folder = await browsed(`folder=${encodeURIComponent("My Drive")}`);
    expect(folder.service).toBe("drive");
    expect(names(folder)).toEqual(["readme.txt"]);
  });

  test("when the query is malformed, then each is a 4xx with its message, never a 5xx", async () => {
    const cases: [string, number][] = [
      ["service=chat", 400],
      ["service=gmail&date=13-45-2026", 400],
      ["service=gmail&date=12-31-2099", 400],
      ["service=drive&label=INBOX", 400],
      ["service=gmail&folder=My%20Drive", 400],
      ["label=INBOX&folder=My%20Drive", 400],
      ["service=gmail&label=Nope", 400],
      ["service=gmail&label=", 400],
      ["service=gmail&label=INBOX&label=SENT", 400],
      [`service=drive&folder=${"x".repeat(1001)}`, 400],
      ["service=gmail&pageSize=0", 400],
      ["service=gmail&page=2&pageToken=garbage", 400],
    ];
    for (const [query, status] of cases) {
      const answer = await browse(query);
      expect({ query, status: answer.status }).toEqual({ query, status });
      expect(answer.body).toMatchObject({ code: status, message: expect.any(String) });
    }
    const unknown = await setup.call(
      `/organizations/${setup.organization.organizationId}/resources/user-nobody/browse`,
      { method: "POST", body: {} },
    );
    expect(unknown.status).toBe(404);
  });
});
