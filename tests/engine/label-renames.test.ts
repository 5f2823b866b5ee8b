/**
 * Gmail label renames: Gmail keeps a renamed label's id and records no history for it, so only comparing
 * `labels.list` with the names the last run saw notices one. Against the Workspace emulator in-process, with
 * the runner, the in-memory catalog and blob store, and the production `GmailRestorer`.
 */
import { gmail_v1 } from "@googleapis/gmail";
import { type Harness, SCOPES, startHarness } from "../../emulators/workspace/src/index";
import { MemoryBlobStore } from "../../functions/src/engine/blobstore/memory-blob-store";
import { deriveKeys, newDataKey } from "../../functions/src/engine/format/keys";
import type { GoogleCaller } from "../../functions/src/engine/google/caller";
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { runBackup } from "../../functions/src/engine/runner/run-backup";
import { GmailSource, LABEL_CHECK_MS } from "../../functions/src/engine/gmail/source";
import { GmailRestorer } from "../../functions/src/engine/gmail/restorer";
import { Mailboxes, meter, restoreVersion } from "../support/backup";

jest.setTimeout(60_000);

const ORG = "org-label-renames";

let harness: Harness;
let mail: Mailboxes;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
  mail = new Mailboxes(harness);
});

afterAll(async () => {
  await harness.stop();
});

function gmailOf(user: string): gmail_v1.Gmail {
  return new gmail_v1.Gmail({
    auth: harness.jwt(user, [SCOPES.gmailModify, SCOPES.gmailLabels, SCOPES.gmailInsert]),
    rootUrl: `${harness.url}/`,
    retry: false,
  });
}

/** A caller that also notes the Google methods each run called. */
function recording(): { caller: GoogleCaller; methods: string[] } {
  const inner = meter();
  const methods: string[] = [];
  return {
    methods,
    caller: {
      ...inner,
      call: (request, send) => {
        methods.push(request.method);
        return inner.call(request, send);
      },
    },
  };
}

test("when a label is renamed in Gmail, then the next run renames it in the items' search fields and current labels without fetching a message or adding a version, and a restore creates the label under its new name", async () => {
  const user = await mail.newUser("labels");
  const gmail = gmailOf(user);
  const label = (await gmail.users.labels.create({ userId: "me", requestBody: { name: "Projekte" } })).data;
  const labelId = label.id as string;
  const tagged = await mail.addMessage(user, "Offerte Bergwerk");
  const other = await mail.addMessage(user, "Newsletter");
  await gmail.users.messages.modify({ userId: "me", id: tagged, requestBody: { addLabelIds: [labelId] } });

  const catalog = new MemoryCatalog();
  const blobStore = new MemoryBlobStore();
  const dataKey = newDataKey();
  let runs = 0;
  let cursor: string | null = null;
  const backup = async (options: { noticeRenames: boolean; now?: () => number }) => {
    runs += 1;
    const runId = `run-${runs}`;
    const { caller, methods } = recording();
    catalog.createRun({ runId, resourceId: user, cursor });
    const source = new GmailSource({
      gmail: new gmail_v1.Gmail({
        auth: harness.jwt(user, [SCOPES.gmailReadonly]),
        rootUrl: `${harness.url}/`,
        retry: false,
      }),
      user,
      caller,
      pageSize: 2,
      ...(options.noticeRenames ? { labelNames: { catalog, resourceId: user } } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
    const result = await runBackup({
      run: { runId, resourceId: user },
      source,
      blobStore,
      catalog,
      dataKey,
      organizationId: ORG,
    });
    expect(result.outcome).toBe("succeeded");
    cursor = catalog.run(runId)?.cursor ?? null;
    return methods;
  };
  const searchLabels = (itemKey: string) => {
    const search = catalog.item(user, itemKey)?.search;
    return search?.kind === "mail" ? search.labels : undefined;
  };

  await backup({ noticeRenames: true });
  expect(searchLabels(tagged)).toContain("projekte");
  expect(await catalog.mailLabelNames(user)).toMatchObject({ [labelId]: "Projekte" });
  const versionsBefore = catalog.versions(user);

  const renamed = await harness.admin("PATCH", `/users/${user}/gmail/labels/${labelId}`, {
    name: "Projekte 2026",
  });
  expect(renamed.status).toBe(200);

  // Without the label names, a run cannot see the rename: the stored name stays the old one.
  await backup({ noticeRenames: false });
  expect(searchLabels(tagged)).toContain("projekte");
  expect(searchLabels(tagged)).not.toContain("projekte 2026");

  // Nothing changed in the mailbox and the labels were checked just now: not checked again yet.
  await backup({ noticeRenames: true });
  expect(searchLabels(tagged)).toContain("projekte");

  // Once the check is due, the run notices the rename.
  const methods = await backup({ noticeRenames: true, now: () => Date.now() + LABEL_CHECK_MS });
  expect(searchLabels(tagged)).toContain("projekte 2026");
  expect(searchLabels(tagged)).not.toContain("projekte");
  expect(catalog.item(user, tagged)?.current.metadata.labels).toContainEqual({
    id: labelId,
    name: "Projekte 2026",
  });
  expect(searchLabels(other)).not.toContain("projekte 2026");
  expect(await catalog.mailLabelNames(user)).toMatchObject({ [labelId]: "Projekte 2026" });
  // The history and one labels.list; no message fetched again, no new version.
  expect(methods).toEqual(["gmail.users.history.list", "gmail.users.labels.list"]);
  expect(catalog.versions(user)).toEqual(versionsBefore);
  const [version] = catalog.versions(user, tagged);
  expect(version?.metadata.labels).toContainEqual({ id: labelId, name: "Projekte" });

  // Restore the version captured before the rename into another mailbox: the label gets its name of now.
  const target = await mail.newUser("labels-target");
  const targetGmail = gmailOf(target);
  const restorer = new GmailRestorer(targetGmail, target, meter());
  const raw = await restoreVersion(
    blobStore,
    { organizationId: ORG, keys: deriveKeys(dataKey) },
    version as NonNullable<typeof version>,
  );
  const labelIds = await restorer.labelIds(
    version?.metadata.labels ?? [],
    null,
    (await catalog.mailLabelNames(user)) ?? {},
  );
  const restored = await restorer.import(raw, labelIds);
  const targetLabels = (await targetGmail.users.labels.list({ userId: "me" })).data.labels ?? [];
  const names = targetLabels.map((entry) => entry.name);
  expect(names).toContain("Projekte 2026");
  expect(names).not.toContain("Projekte");
  const newLabel = targetLabels.find((entry) => entry.name === "Projekte 2026");
  const message = (await targetGmail.users.messages.get({ userId: "me", id: restored, format: "minimal" }))
    .data;
  expect(message.labelIds).toContain(newLabel?.id);
});

test("when nothing was renamed, then the first run reads the labels, an unchanged mailbox's next runs read them only once the check is due, and the items are left alone", async () => {
  const user = await mail.newUser("labels-same");
  await mail.addMessage(user, "Hello");
  const catalog = new MemoryCatalog();
  const blobStore = new MemoryBlobStore();
  const dataKey = newDataKey();
  let cursor: string | null = null;
  let renames = 0;
  const renameCalls: Parameters<MemoryCatalog["renameMailLabels"]>[] = [];
  const counted = {
    mailLabelNames: (resourceId: string) => catalog.mailLabelNames(resourceId),
    mailLabelsCheckedAt: (resourceId: string) => catalog.mailLabelsCheckedAt(resourceId),
    renameMailLabels: (...args: Parameters<MemoryCatalog["renameMailLabels"]>) => {
      renames += 1;
      renameCalls.push(args);
      return catalog.renameMailLabels(...args);
    },
  };
  const runs: { runId: string; now: number; labelLists: number; renamesAfter: number }[] = [
    { runId: "run-1", now: Date.now(), labelLists: 1, renamesAfter: 1 },
    { runId: "run-2", now: Date.now(), labelLists: 0, renamesAfter: 1 },
    { runId: "run-3", now: Date.now() + LABEL_CHECK_MS, labelLists: 1, renamesAfter: 2 },
  ];
  for (const run of runs) {
    catalog.createRun({ runId: run.runId, resourceId: user, cursor });
    const { caller, methods } = recording();
    await runBackup({
      run: { runId: run.runId, resourceId: user },
      source: new GmailSource({
        gmail: new gmail_v1.Gmail({
          auth: harness.jwt(user, [SCOPES.gmailReadonly]),
          rootUrl: `${harness.url}/`,
          retry: false,
        }),
        user,
        caller,
        labelNames: { catalog: counted, resourceId: user },
        now: () => run.now,
      }),
      blobStore,
      catalog,
      dataKey,
      organizationId: ORG,
    });
    cursor = catalog.run(run.runId)?.cursor ?? null;
    expect(methods.filter((method) => method === "gmail.users.labels.list")).toHaveLength(run.labelLists);
    // The first check records the names; a later one records only that it checked (nothing renamed).
    expect(renames).toBe(run.renamesAfter);
    expect(renameCalls.at(-1)?.[1]).toEqual([]);
  }
  expect(await catalog.mailLabelsCheckedAt(user)).toBe(new Date(runs[2]?.now ?? 0).toISOString());
});
