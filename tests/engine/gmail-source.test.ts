/**
 * The Gmail source against the Workspace emulator in-process, through the official Gmail client: full
 * listing and fetch, incremental listing from history, expired history, paging and the search fields.
 */
import { gmail_v1 } from "@googleapis/gmail";
import {
  type Harness,
  SCOPES,
  startHarness,
  TEST_USER,
  testMessage,
} from "../../emulators/workspace/src/index";
import {
  DIRECT_CALLER,
  type GoogleCaller,
  type GoogleRequest,
} from "../../functions/src/engine/google/caller";
import { GmailSource } from "../../functions/src/engine/gmail/source";
import type { Change, ChangeBatch, MailSearchFields } from "../../functions/src/engine/sources/source";

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ quota: { enabled: false }, latency: { enabled: false } });
});

afterAll(async () => {
  await harness.stop();
});

let mailboxCounter = 0;

/** A fresh mailbox user for each test. */
async function newMailbox(): Promise<string> {
  mailboxCounter += 1;
  const email = `mailbox${mailboxCounter}@example-test.test`;
  const created = await harness.admin("POST", "/users", { email, givenName: "Mail", familyName: "Box" });
  expect(created.status).toBe(200);
  return email;
}

async function addMessage(
  user: string,
  subject: string,
  options: { labelIds?: string[]; raw?: Buffer } = {},
): Promise<string> {
  const raw =
    options.raw ?? testMessage({ subject, to: user, messageId: `${subject.replace(/\W/g, "")}@x.test` });
  const answer = await harness.admin<{ id: string }>("POST", `/users/${user}/gmail/messages`, {
    raw: raw.toString("base64"),
    encoding: "base64",
    ...(options.labelIds ? { labelIds: options.labelIds } : {}),
  });
  expect(answer.status).toBe(200);
  return answer.body.id;
}

function source(user: string, caller: GoogleCaller = DIRECT_CALLER, pageSize?: number): GmailSource {
  return new GmailSource({
    // As the engine builds its clients: retries belong to the caller alone.
    gmail: new gmail_v1.Gmail({
      auth: harness.jwt(user, [SCOPES.gmailReadonly]),
      rootUrl: `${harness.url}/`,
      retry: false,
    }),
    user,
    caller,
    ...(pageSize ? { pageSize } : {}),
  });
}

async function collect(listing: AsyncIterable<ChangeBatch>): Promise<ChangeBatch[]> {
  const batches: ChangeBatch[] = [];
  for await (const batch of listing) batches.push(batch);
  return batches;
}

function upsertKeys(batches: ChangeBatch[]): string[] {
  return batches.flatMap((batch) =>
    batch.changes.flatMap((change) => (change.type === "upsert" ? [change.item.itemKey] : [])),
  );
}

async function bytesOf(content: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of content) parts.push(part);
  return Buffer.concat(parts);
}

function storedRaw(user: string, id: string): Buffer {
  const userId = harness.emulator.directory.user(user)?.id ?? "";
  return harness.emulator.gmail.message(userId, id).raw;
}

/** Runs a full listing to its end and returns the incremental cursor. */
async function fullCursor(gmail: GmailSource): Promise<string> {
  const batches = await collect(gmail.listChanges(null));
  return batches[batches.length - 1]?.nextCursor ?? "";
}

describe("Gmail source", () => {
  it("when a mailbox is listed in full, then every message (spam and trash included) is reported and fetches the emulator's exact bytes", async () => {
    const user = await newMailbox();
    const label = await harness.admin<{ id: string }>("POST", `/users/${user}/gmail/labels`, {
      name: "Projects/Alpha",
    });
    const ids = [
      await addMessage(user, "Inbox one"),
      await addMessage(user, "Inbox two"),
      await addMessage(user, "Spam one", { labelIds: ["SPAM"] }),
      await addMessage(user, "Trash one", { labelIds: ["TRASH"] }),
      await addMessage(user, "Labelled one", { labelIds: ["INBOX", label.body.id] }),
    ];
    const gmail = source(user, DIRECT_CALLER, 2);

    const batches = await collect(gmail.listChanges(null));

    expect(batches.length).toBe(3);
    expect(batches[0]?.fullListing).toBe(true);
    expect(batches[0]?.resynced).toBeUndefined();
    expect(batches.map((batch) => batch.done === true)).toEqual([false, false, true]);
    expect(batches[2]?.nextCursor).toMatch(/^\d+$/);
    expect(batches[0]?.nextCursor).not.toMatch(/^\d+$/);
    expect(upsertKeys(batches).sort()).toEqual([...ids].sort());

    for (const id of ids) {
      const fetched = await gmail.fetch({ itemKey: id });
      const content = await bytesOf(fetched.content);
      expect(content.equals(storedRaw(user, id))).toBe(true);
      expect(fetched.size).toBe(content.length);
      expect(fetched.contentKey).toBe(id);
    }
    const labelled = await gmail.fetch({ itemKey: ids[4] as string });
    expect(labelled.metadata.labels).toEqual(
      expect.arrayContaining([
        { id: "INBOX", name: "INBOX" },
        { id: label.body.id, name: "Projects/Alpha" },
      ]),
    );
    expect((labelled.search as MailSearchFields).labels).toEqual(
      expect.arrayContaining(["inbox", "projects/alpha"]),
    );
    expect(labelled.metadata.threadId).toBeTruthy();
    expect(typeof labelled.metadata.internalDate).toBe("number");
  });

  it("when a full listing is resumed from a mid-listing cursor, then it reports the remaining pages only", async () => {
    const user = await newMailbox();
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push(await addMessage(user, `Resume ${index}`));
    const gmail = source(user, DIRECT_CALLER, 2);
    const first = (await collect(gmail.listChanges(null)))[0] as ChangeBatch;

    const rest = await collect(source(user, DIRECT_CALLER, 2).listChanges(first.nextCursor));

    expect(rest[0]?.fullListing).toBeUndefined();
    expect([...upsertKeys([first]), ...upsertKeys(rest)].sort()).toEqual([...ids].sort());
    expect(rest[rest.length - 1]?.nextCursor).toMatch(/^\d+$/);
  });

  it("when messages are added, deleted and relabelled after a backup, then the incremental listing reports exactly those changes", async () => {
    const user = await newMailbox();
    const kept = await addMessage(user, "Kept");
    const doomed = await addMessage(user, "Doomed");
    const relabelled = await addMessage(user, "Relabelled");
    const label = await harness.admin<{ id: string }>("POST", `/users/${user}/gmail/labels`, {
      name: "Later",
    });
    const cursor = await fullCursor(source(user));

    const added = await addMessage(user, "Added");
    expect((await harness.admin("DELETE", `/users/${user}/gmail/messages/${doomed}`)).status).toBe(204);
    const modified = await harness.admin("POST", `/users/${user}/gmail/messages/${relabelled}:modify`, {
      addLabelIds: [label.body.id, "STARRED"],
      removeLabelIds: ["UNREAD"],
    });
    expect(modified.status).toBe(200);
    // Added and relabelled in the same listing: one upsert (the fetch reads the labels).
    const starred = await harness.admin("POST", `/users/${user}/gmail/messages/${added}:modify`, {
      addLabelIds: ["STARRED"],
    });
    expect(starred.status).toBe(200);

    const batches = await collect(source(user).listChanges(cursor));

    const changes = batches.flatMap((batch) => batch.changes);
    expect(changes).toHaveLength(3);
    expect(changes).toContainEqual({ type: "upsert", item: { itemKey: added } });
    expect(changes).toContainEqual({ type: "delete", itemKey: doomed });
    const metadata = changes.find((change) => change.type === "metadata") as Extract<
      Change,
      { type: "metadata" }
    >;
    expect(metadata.itemKey).toBe(relabelled);
    expect(metadata.metadata.labels).toEqual(
      expect.arrayContaining([
        { id: "INBOX", name: "INBOX" },
        { id: "STARRED", name: "STARRED" },
        { id: label.body.id, name: "Later" },
      ]),
    );
    expect(metadata.metadata.labels?.map((item) => item.id)).not.toContain("UNREAD");
    // The metadata version's key is the message's historyId after the change, as a fetch would say.
    const refetched = await source(user).fetch({ itemKey: relabelled });
    expect(metadata.versionKey).toBe(refetched.versionKey);
    expect(metadata.metadata.historyId).toBe(refetched.versionKey);
    expect(changes.some((change) => "itemKey" in change && change.itemKey === kept)).toBe(false);
    expect(batches[batches.length - 1]?.done).toBe(true);
    expect(batches[batches.length - 1]?.nextCursor).toMatch(/^\d+$/);
    expect(batches.some((batch) => batch.resynced)).toBe(false);
  });

  it("when nothing changed since the cursor, then the incremental listing is one history.list call and no change", async () => {
    const user = await newMailbox();
    await addMessage(user, "Quiet");
    const cursor = await fullCursor(source(user));
    const methods: string[] = [];
    const counting: GoogleCaller = {
      call: (request: GoogleRequest, send) => {
        methods.push(request.method);
        expect(request.user).toBe(user);
        return send();
      },
    };

    const batches = await collect(source(user, counting).listChanges(cursor));

    expect(methods).toEqual(["gmail.users.history.list"]);
    expect(batches).toEqual([{ changes: [], nextCursor: cursor, done: true }]);
  });

  it("when the history changes span several pages, then every page is a batch with a resumable cursor", async () => {
    const user = await newMailbox();
    const cursor = await fullCursor(source(user));
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) ids.push(await addMessage(user, `Paged ${index}`));

    const batches = await collect(source(user, DIRECT_CALLER, 2).listChanges(cursor));

    expect(batches.length).toBe(3);
    expect(upsertKeys(batches).sort()).toEqual([...ids].sort());
    // Resuming from the first page's cursor reports the rest (and nothing before it).
    const rest = await collect(source(user, DIRECT_CALLER, 2).listChanges(batches[0]?.nextCursor ?? ""));
    expect(upsertKeys(rest).sort()).toEqual(upsertKeys(batches.slice(1)).sort());
  });

  it("when the saved history has expired, then the source restarts a full listing marked resynced instead of failing", async () => {
    const user = await newMailbox();
    const first = await addMessage(user, "Before expiry");
    const cursor = await fullCursor(source(user));
    const second = await addMessage(user, "After cursor");
    expect((await harness.admin("POST", `/users/${user}/gmail/history:expire`)).status).toBe(200);

    const batches = await collect(source(user).listChanges(cursor));

    expect(batches[0]?.resynced).toBe(true);
    expect(batches[0]?.fullListing).toBe(true);
    expect(upsertKeys(batches).sort()).toEqual([first, second].sort());
    const last = batches[batches.length - 1] as ChangeBatch;
    expect(last.done).toBe(true);
    // The new cursor works: an incremental listing from it succeeds without a resync.
    const next = await collect(source(user).listChanges(last.nextCursor));
    expect(next.some((batch) => batch.resynced)).toBe(false);
  });

  it("when the saved cursor is not one the source wrote, then it resyncs in full", async () => {
    const user = await newMailbox();
    const id = await addMessage(user, "Any");

    const batches = await collect(source(user).listChanges("not-a-cursor"));

    expect(batches[0]?.resynced).toBe(true);
    expect(upsertKeys(batches)).toEqual([id]);
  });

  it("when a message has encoded and quoted address headers, then the search fields hold the decoded subject, sender and recipients", async () => {
    const user = await newMailbox();
    const subject = "Quarterly réport – Zürich";
    const raw = Buffer.from(
      [
        `From: =?UTF-8?B?${Buffer.from("Zoë Müller").toString("base64")}?= <Zoe.Mueller@Example.org>`,
        `To: "Doe, Jane" <jane@example.com>, bob@example.net (Bob B),`,
        " team@example.com",
        `Cc: Carol <carol@example.com>`,
        `Subject: =?UTF-8?Q?Quarterly_r=C3=A9port_=E2=80=93?=`,
        " =?UTF-8?Q?_Z=C3=BCrich?=",
        "Date: Tue, 03 Feb 2026 09:30:00 +0100",
        "Message-ID: <encoded-1@x.test>",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=UTF-8",
        "",
        "Subject: not a header, the body",
        "",
      ].join("\r\n"),
    );
    const id = await addMessage(user, "", { raw });

    const fetched = await source(user).fetch({ itemKey: id });

    const search = fetched.search as MailSearchFields;
    expect(search.kind).toBe("mail");
    expect(search.subject).toBe(subject.toLowerCase());
    expect(search.fromName).toBe("zoë müller");
    expect(search.fromEmail).toBe("zoe.mueller@example.org");
    expect(search.to).toEqual(["jane@example.com", "bob@example.net", "team@example.com"]);
    expect(search.date).toBe("2026-02-03T08:30:00.000Z");
    expect(search.size).toBe(raw.length);
    expect(search.keywords).toEqual(
      expect.arrayContaining(["quarterly", "réport", "zürich", "zoë", "müller", "jane", "carol", "example"]),
    );
    expect(search.keywords).not.toContain("body");
    expect(new Set(search.keywords).size).toBe(search.keywords.length);
  });

  it("when a listed message is deleted before it is fetched, then the fetch says the item is gone", async () => {
    const user = await newMailbox();
    const id = await addMessage(user, "Short-lived");
    await harness.admin("DELETE", `/users/${user}/gmail/messages/${id}`);

    await expect(source(user).fetch({ itemKey: id })).rejects.toMatchObject({
      name: "ItemGoneError",
      itemKey: id,
    });
  });
});

describe("Gmail source with faults", () => {
  afterEach(async () => {
    await harness.admin("DELETE", "/faults");
  });

  it("when a message answer is cut off mid-body, then the fetch fails as a whole and a retry inside the caller reads it exactly", async () => {
    const user = await newMailbox();
    const raw = testMessage({
      subject: "Large",
      to: user,
      attachments: [
        { filename: "a.bin", contentType: "application/octet-stream", data: Buffer.alloc(200_000, 7) },
      ],
    });
    const id = await addMessage(user, "Large", { raw });
    const fault = await harness.admin("POST", "/faults", {
      method: "gmail.users.messages.get",
      sequence: [{ kind: "truncate" }, "ok"],
    });
    expect(fault.status).toBe(200);

    await expect(source(user).fetch({ itemKey: id })).rejects.toThrow();

    await harness.admin("DELETE", "/faults");
    await harness.admin("POST", "/faults", {
      method: "gmail.users.messages.get",
      sequence: [{ kind: "truncate" }, "ok"],
    });
    const failures: unknown[] = [];
    const retrying: GoogleCaller = {
      call: async (_request, send) => {
        for (;;) {
          try {
            return await send();
          } catch (error) {
            failures.push(error);
            if (failures.length >= 3) throw error;
          }
        }
      },
    };
    const fetched = await source(user, retrying).fetch({ itemKey: id });
    expect(failures).toHaveLength(1);
    expect((await bytesOf(fetched.content)).equals(raw)).toBe(true);
  });
});

describe("Gmail source with quotas on", () => {
  let quotaHarness: Harness;

  beforeAll(async () => {
    quotaHarness = await startHarness({ latency: { enabled: false } });
  });

  afterAll(async () => {
    await quotaHarness.stop();
  });

  it("when a message is backed up, then the listing and fetch go through the caller with Google's method ids", async () => {
    const requests: GoogleRequest[] = [];
    const caller: GoogleCaller = {
      call: (request, send) => {
        requests.push(request);
        return send();
      },
    };
    await quotaHarness.admin("POST", `/users/${TEST_USER}/gmail/messages`, {
      raw: testMessage({ subject: "Quota" }).toString("base64"),
      encoding: "base64",
    });
    const gmail = new GmailSource({ gmail: quotaHarness.gmail(TEST_USER), user: TEST_USER, caller });

    const batches = await collect(gmail.listChanges(null));
    const fetched = await gmail.fetch({ itemKey: upsertKeys(batches)[0] as string });
    await bytesOf(fetched.content);

    expect(requests.map((request) => request.method)).toEqual([
      "gmail.users.getProfile",
      "gmail.users.messages.list",
      "gmail.users.messages.get",
      "gmail.users.labels.list",
    ]);
    expect(requests.every((request) => request.api === "gmail" && request.idempotent)).toBe(true);
  });
});
