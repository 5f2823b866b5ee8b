/**
 * Section "contacts": the production `ContactsSource` and `ContactsRestorer` against the Workspace
 * emulator with quotas on (2026 model: People's 90 requests a minute per user, reads and writes against one
 * budget), its latency model compressed by the time scale, through one `quotaAwareCaller` each.
 *
 * - Units per contact: a user with `CONTACTS` contacts (in pages of 1,000), a few groups and other
 *   contacts, backed up in full: the requests the run's metered caller counted (retries included), per
 *   contact.
 * - Restore ceiling: `RESTORED` contacts with their photos restored to another user, into a group, as the
 *   recovery restores them (one user's writes one after another): `batchCreateContacts` 200 a call, then
 *   `updateContactPhoto` per photo and the groups' members. Requests the emulator charged (reads and
 *   writes, which the caller spends from one budget) per quota minute over the steady part ÷ the per-user
 *   limit, the caller's bucket and the emulator's emptied at one instant just before.
 * - Google-bound share: a contacts backup reads 1,000 contacts a request, so it stays far under the
 *   per-minute limit (25,000 contacts, Google's most per user, are some 30 requests) and has no per-user
 *   ceiling to reach. What bounds it is Google's answer times, one page after another (each page needs the
 *   previous page's token). Its ceiling is then to be waiting on Google the whole run: `CONTACTS_AT_LIMIT`
 *   contacts (Google's most a user) backed up by the production runner (`runBackup`, memory catalog and
 *   store) at time scale 1 (latency not compressed, so our own work is not magnified either), the time at
 *   least one call was waiting on Google (its answer or its quota) ÷ the run's time. What is left is the
 *   storing of the last page, after which there is nothing more to ask: the larger the address book, the
 *   smaller its share.
 */
import { people_v1 } from "@googleapis/people";

import { SCOPES } from "../../emulators/workspace/src/index";
import { ContactsRestorer } from "../../functions/src/engine/contacts/restorer";
import { ContactsSource } from "../../functions/src/engine/contacts/source";
import type { GoogleCaller } from "../../functions/src/engine/google/caller";
import { meteredCaller, quotaAwareCaller } from "../../functions/src/engine/google/quota-caller";
import { googleClientOptions } from "../../functions/src/engine/google/client-options";
import { GOOGLE_QUOTA_LIMITS } from "../../functions/src/engine/google/costs";
import type { ChangeBatch } from "../../functions/src/engine/sources/source";
import type { MeasuredFigure } from "./types";
import { BackupStore, sampler, steadyRate } from "./engine-store";
import { BenchWorkspace, CALLER_FRACTION } from "./engine-workspace";

const TIME_SCALE = 10;
const SEED = 9_001;
const LIMIT = GOOGLE_QUOTA_LIMITS.people.perUserPerMinute;
const CONTACTS = 10_000;
/** Google's most contacts per user: the longest contacts backup there is. */
const CONTACTS_AT_LIMIT = 25_000;
/** About 7 quota minutes of writes: a photo each. */
const RESTORED = 600;
/** A 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

const count = (value: number): string => value.toLocaleString("en-US");

function peopleClient(workspace: BenchWorkspace, user: string): people_v1.People {
  const auth = workspace.harness.jwt(user, [
    SCOPES.contacts,
    SCOPES.contactsReadonly,
    SCOPES.contactsOtherReadonly,
  ]);
  return new people_v1.People(googleClientOptions({ auth, rootUrl: `${workspace.harness.url}/` }));
}

/** Contacts made ten minutes ago (Google's sync sees a write only after minutes), `withPhoto` of them with one. */
async function addContacts(
  workspace: BenchWorkspace,
  user: string,
  total: number,
  withPhoto: number,
  group: string,
) {
  for (let start = 0; start < total; start += 1_000) {
    const contacts = Array.from({ length: Math.min(1_000, total - start) }, (_, offset) => {
      const index = start + offset;
      return {
        person: {
          names: [{ givenName: `Person${index}`, familyName: `Bench${index % 97}` }],
          emailAddresses: [{ value: `person${index}@partner.test` }],
          phoneNumbers: [{ value: `+41 44 ${String(100_0000 + index).slice(0, 7)}` }],
          organizations: [{ name: `Firma ${index % 50}` }],
          memberships:
            index % 3 === 0 ? [{ contactGroupMembership: { contactGroupResourceName: group } }] : [],
        },
        ...(index < withPhoto ? { photoBase64: PNG.toString("base64") } : {}),
      };
    });
    const answer = await workspace.harness.admin("POST", `/users/${user}/people/contacts`, {
      contacts,
      ageMinutes: 10,
    });
    if (answer.status !== 200) throw new Error(`adding contacts: ${answer.status}`);
  }
}

async function addGroup(workspace: BenchWorkspace, user: string, name: string): Promise<string> {
  const answer = await workspace.harness.admin<{ resourceName: string }>(
    "POST",
    `/users/${user}/people/groups`,
    { name },
  );
  if (answer.status !== 200) throw new Error(`adding a group: ${answer.status}`);
  return answer.body.resourceName;
}

/** A caller that times how long at least one of its calls was waiting on `inner` (Google's answer or quota). */
function waitTimer(inner: GoogleCaller): { caller: GoogleCaller; waitedMs(): number } {
  let inFlight = 0;
  let since = 0;
  let waited = 0;
  return {
    caller: {
      async call(request, send) {
        if (inFlight++ === 0) since = performance.now();
        try {
          return await inner.call(request, send);
        } finally {
          if (--inFlight === 0) waited += performance.now() - since;
        }
      },
    },
    waitedMs: () => waited,
  };
}

/** The share of a full backup of `CONTACTS_AT_LIMIT` contacts that waited on Google, at time scale 1. */
async function googleBoundShare(): Promise<{ share: number; seconds: number; requests: number }> {
  const workspace = await BenchWorkspace.start(1, {
    users: 1,
    messagesPerUser: 1,
    filesPerUser: 1,
    seed: SEED,
  });
  try {
    const [user] = workspace.users;
    if (!user) throw new Error("the generated organisation has no user");
    await addContacts(workspace, user, CONTACTS_AT_LIMIT, 0, await addGroup(workspace, user, "Kunden"));
    const metered = meteredCaller(quotaAwareCaller({ minuteMs: workspace.minuteMs }));
    const timer = waitTimer(metered);
    const run = await new BackupStore().backup(
      user,
      new ContactsSource({ people: peopleClient(workspace, user), user, caller: timer.caller }),
      metered.usage,
    );
    const runMs = run.finishedAt - run.startedAt;
    return { share: timer.waitedMs() / runMs, seconds: runMs / 1000, requests: metered.usage.units };
  } finally {
    await workspace.stop();
  }
}

/** Empties the user's buckets at once (see `BenchWorkspace.emptyBuckets`), charged as `contactGroups.list`. */
function spendFirstBucket(workspace: BenchWorkspace, user: string, caller: GoogleCaller): Promise<number> {
  const request = { api: "people", user, idempotent: true, method: "people.contactGroups.list" } as const;
  return workspace.emptyBuckets(caller, request, LIMIT * CALLER_FRACTION);
}

/** Every upsert of a full listing, fetched as a backup stores it: the entries a restore reads. */
async function backUp(source: ContactsSource) {
  const entries: { metadata: Awaited<ReturnType<ContactsSource["fetch"]>>["metadata"]; content: Buffer }[] =
    [];
  for await (const batch of source.listChanges(null) as AsyncIterable<ChangeBatch>) {
    for (const change of batch.changes) {
      if (change.type !== "upsert") continue;
      const fetched = await source.fetch(change.item);
      const parts: Buffer[] = [];
      for await (const part of fetched.content) parts.push(Buffer.from(part));
      entries.push({ metadata: fetched.metadata, content: Buffer.concat(parts) });
    }
  }
  return entries;
}

export async function measureContacts(): Promise<MeasuredFigure[]> {
  const workspace = await BenchWorkspace.start(TIME_SCALE, {
    users: 3,
    messagesPerUser: 1,
    filesPerUser: 1,
    seed: SEED,
  });
  try {
    const [big, small, target] = workspace.users;
    if (!big || !small || !target) throw new Error("the generated organisation has too few users");
    await addContacts(workspace, big, CONTACTS, 0, await addGroup(workspace, big, "Kunden"));
    await addContacts(workspace, small, RESTORED, RESTORED, await addGroup(workspace, small, "Team"));
    const { minuteMs } = workspace;

    const bigCaller = meteredCaller(quotaAwareCaller({ minuteMs }));
    const started = performance.now();
    const bigEntries = await backUp(
      new ContactsSource({ people: peopleClient(workspace, big), user: big, caller: bigCaller }),
    );
    const backupMinutes = (performance.now() - started) / minuteMs;
    const contacts = bigEntries.filter((entry) => entry.metadata.contactEntry === "contact").length;
    if (contacts !== CONTACTS) throw new Error(`the backup read ${contacts} of ${CONTACTS} contacts`);

    const entries = await backUp(
      new ContactsSource({
        people: peopleClient(workspace, small),
        user: small,
        caller: quotaAwareCaller({ minuteMs }),
      }),
    );
    const restoreCaller = quotaAwareCaller({ minuteMs });
    const spent = await spendFirstBucket(workspace, target, restoreCaller);
    const restorer = new ContactsRestorer(peopleClient(workspace, target), target, restoreCaller);
    // Reads and writes: the caller spends both from one budget of the per-user limit (the stricter reading).
    const charged = () => {
      const reads = workspace.charged("people");
      const writes = workspace.charged("peopleWrites");
      return { calls: reads.calls + writes.calls, rejected: reads.rejected + writes.rejected };
    };
    const calls = sampler(100, () => charged().calls);
    const before = charged();
    const startedAt = performance.now();
    const outcomes = await restorer.restore(entries, { user: target, group: "Restored" });
    const run = { startedAt, finishedAt: performance.now() };
    const steady = steadyRate(calls.stop(), run, minuteMs);
    const restored = outcomes.filter((outcome) => outcome.restored).length;
    if (restored !== entries.length) throw new Error(`restored ${restored} of ${entries.length} entries`);
    const refused = charged().rejected - before.rejected;

    const bound = await googleBoundShare();

    return [
      {
        id: "contacts-backup-google-share",
        value: bound.share,
        note:
          `time scale 1, latency model on; ${count(CONTACTS_AT_LIMIT)} contacts (Google's most a user) and a ` +
          `group backed up in full by ` +
          `runBackup: ${count(bound.requests)} requests in ${bound.seconds.toFixed(1)} s, waiting on Google ` +
          `${(bound.share * 100).toFixed(1)} % of it`,
      },
      {
        id: "contacts-units-per-contact",
        value: bigCaller.usage.units / CONTACTS,
        note:
          `${count(CONTACTS)} contacts, a group, a full listing: ${count(bigCaller.usage.units)} requests ` +
          `(${bigCaller.usage.retries} retried) in ` +
          `${backupMinutes.toFixed(1)} quota minutes`,
      },
      {
        id: "contacts-restore-ceiling-fraction",
        value: steady.perMinute / LIMIT,
        note:
          `time scale ${TIME_SCALE}, latency model on; ${count(restored)} entries (${RESTORED} contacts with a ` +
          `photo each, their group) restored to another user into a group, one write after another: ` +
          `${steady.runMinutes.toFixed(1)} quota minutes, steady part ${steady.minutes.toFixed(1)} minutes at ` +
          `${steady.perMinute.toFixed(1)} requests (reads and writes) a minute of ${LIMIT}; the caller's bucket and the emulator's emptied just ` +
          `before (${spent} charged); refused by the emulator: ${refused}`,
      },
    ];
  } finally {
    await workspace.stop();
  }
}
