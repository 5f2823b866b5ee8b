/**
 * Plans an organisation from a profile and a seed: the customer, users with their label sets, the shared
 * files, organisation-wide announcements and the Drive content. Mail bodies are built later, one mailbox at
 * a time (`planMailbox`), so large profiles stream.
 */
import { DEFAULT_GRANTED_SCOPES } from "../auth";
import { pdf, png, csvOfSize, sentences } from "./content";
import { planDrive } from "./drive-tree";
import { planBroadcasts, planMailbox } from "./mail";
import { DAY_MS } from "./mail-build";
import { DEMO_ROSTER, generateRoster } from "./names";
import { Random } from "./random";
import type { Blob, OrganisationPlan, PlanOptions, PlannedMessage, PlannedUser } from "./types";

export const DEMO_DOMAIN = "alpvault-demo.test";
export const BENCH_DOMAIN = "alpvault-bench.test";
export const DEFAULT_SEED = 20261101;
/** The generated world's "now": every generated date lies in the two years before it. */
export const REFERENCE_DATE = "2026-11-01T00:00:00.000Z";

const USER_LABELS = [
  "Projects/Alpvault",
  "Projects/Relaunch Website",
  "Finanzen",
  "Reisen",
  "Kunden/Zürich",
  "Kunden/Genève",
  "Newsletter",
  "Rechnungen/2025",
  "Rechnungen/2026",
  "Privat",
  "Ufficio Lugano",
];

/** Label names with every parent first (`Projects`, then `Projects/Alpvault`). */
function withParents(labels: string[]): string[] {
  const out: string[] = [];
  for (const label of [...labels].sort()) {
    const parts = label.split("/");
    for (let depth = 1; depth <= parts.length; depth += 1) {
      const name = parts.slice(0, depth).join("/");
      if (!out.includes(name)) out.push(name);
    }
  }
  return out;
}

/** The awkward mail cases' user without Gmail: a Drive licence only. */
export const DRIVE_ONLY_USER = {
  localPart: "noemi.frei",
  givenName: "Noemi",
  familyName: "Frei",
  language: "de",
  title: "Grafikerin (nur Drive)",
} as const;
/** Default size of the awkward mail cases' large message: 30 MB, within Gmail's 150 MB upload limit. */
export const LARGE_MESSAGE_BYTES = 30_000_000;

/** Files that appear, byte-identical, in several mailboxes and My Drives. */
function planSharedBlobs(seed: number): Blob[] {
  const random = Random.of("shared-blobs", seed);
  const text = (count: number): string[] => sentences(random, "de", count);
  return [
    { name: "Logo Alpvault.png", mimeType: "image/png", content: png(random, random.int(6_000, 12_000)) },
    {
      name: "Spesenreglement 2026.pdf",
      mimeType: "application/pdf",
      content: pdf(random, "Spesenreglement 2026", text(20), random.int(120_000, 200_000)),
    },
    {
      name: "Règlement télétravail.pdf",
      mimeType: "application/pdf",
      content: pdf(random, "Reglement teletravail", sentences(random, "fr", 20), random.int(40_000, 80_000)),
    },
    { name: "Organigramm.png", mimeType: "image/png", content: png(random, random.int(60_000, 90_000)) },
    {
      name: "Telefonliste.csv",
      mimeType: "text/csv",
      content: Buffer.from(csvOfSize(random, random.int(3_000, 6_000))),
    },
  ];
}

export function planOrganisation(options: PlanOptions): OrganisationPlan {
  const seed = (options.seed ?? DEFAULT_SEED) >>> 0;
  const demo = options.profile === "demo";
  const domain = demo ? DEMO_DOMAIN : BENCH_DOMAIN;
  const end = Date.parse(REFERENCE_DATE);
  const random = Random.of("organisation", options.profile, seed);
  const roster =
    demo && options.users === undefined
      ? DEMO_ROSTER.map((entry) => ({ ...entry }))
      : generateRoster(random, Math.max(1, options.users ?? (demo ? DEMO_ROSTER.length : 10)));
  const broadcastCount = demo ? 3 : Math.max(3, Math.round((options.messagesPerUser ?? 2000) * 0.01));
  const ownMessages: Record<string, number> = {};
  const users: PlannedUser[] = roster.map((entry, index) => {
    const email = `${entry.localPart}@${domain}`;
    const total = options.messagesPerUser ?? (demo ? random.int(30, 60) : 2000);
    ownMessages[email] = Math.max(0, total - broadcastCount);
    return {
      email,
      givenName: entry.givenName,
      familyName: entry.familyName,
      language: entry.language,
      title: entry.title,
      isAdmin: entry.isAdmin,
      suspended: entry.suspended,
      creationTime: new Date(
        index === 0 ? Date.UTC(2019, 4, 6, 8) : end - random.int(400, 2_000) * DAY_MS,
      ).toISOString(),
      labels: withParents(random.sample(USER_LABELS, random.int(2, 5))),
      messageCount: Math.max(0, total - broadcastCount) + broadcastCount,
    };
  });
  if (options.awkwardMail) {
    // After everyone else, so the other users' plans do not change; before Drive, so they have a My Drive.
    users.push({
      email: `${DRIVE_ONLY_USER.localPart}@${domain}`,
      givenName: DRIVE_ONLY_USER.givenName,
      familyName: DRIVE_ONLY_USER.familyName,
      language: DRIVE_ONLY_USER.language,
      title: DRIVE_ONLY_USER.title,
      isAdmin: false,
      suspended: false,
      creationTime: new Date(end - 200 * DAY_MS).toISOString(),
      labels: [],
      messageCount: 0,
      gmailEnabled: false,
    });
  }
  const largeMessage =
    options.awkwardMail && users[1]
      ? { email: users[1].email, bytes: options.largeMessageBytes ?? LARGE_MESSAGE_BYTES }
      : undefined;
  if (largeMessage && users[1]) users[1].messageCount += 1;
  const sharedBlobs = planSharedBlobs(seed);
  const broadcasts = planBroadcasts(seed, domain, users, sharedBlobs, broadcastCount, end);
  const drive = planDrive({
    seed,
    domain,
    users,
    sharedBlobs,
    filesPerUser: (driveRandom) => options.filesPerUser ?? (demo ? driveRandom.int(12, 20) : 40),
    maxSize: demo ? 400_000 : 1_000_000,
    end,
  });
  return {
    profile: options.profile,
    seed,
    domain,
    installed: !demo,
    scopes: demo ? [] : [...DEFAULT_GRANTED_SCOPES],
    referenceDate: REFERENCE_DATE,
    users,
    sharedBlobs,
    broadcasts,
    sharedDrives: drive.sharedDrives,
    driveItems: drive.items,
    mail: {
      ownMessages,
      attachmentScale: demo ? "demo" : "bench",
      ...(largeMessage ? { largeMessage } : {}),
    },
  };
}

/** Every mailbox's messages at once (small organisations and tests; bench should stream `planMailbox`). */
export function planMailboxes(plan: OrganisationPlan): Map<string, PlannedMessage[]> {
  return new Map(plan.users.map((user) => [user.email, [...planMailbox(plan, user.email)]]));
}
