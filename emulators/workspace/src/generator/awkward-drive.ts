/**
 * The awkward Drive cases added to a generated organisation: files and folders that are hard to back up
 * or restore (a huge file, shortcuts, restricted and abusive files, outside owners, odd names...).
 */
import { pdf, sentences } from "./content";
import { DAY_MS } from "./mail-build";
import { workTime } from "./mail-people";
import { Random } from "./random";
import type { OrganisationPlan, PlannedDriveItem, PlannedExternalPerson, PlannedSharedDrive } from "./types";

import {
  FOLDER,
  GOOGLE_DOC,
  GOOGLE_FORM,
  GOOGLE_SITE,
  GOOGLE_MAP,
  GOOGLE_JAM,
  GOOGLE_DRAWING,
  GOOGLE_SCRIPT,
  SHORTCUT,
  iso,
} from "./drive-tree";

/** The awkward cases' huge file: 3 GiB, past what one Buffer (or one backup task) can hold. */
export const HUGE_FILE_BYTES = 3 * 1024 ** 3;

/** What `planAwkwardDrive` adds to a plan. */
export interface AwkwardDrive {
  items: PlannedDriveItem[];
  sharedDrives: PlannedSharedDrive[];
  externalPeople: PlannedExternalPerson[];
}

/** How the awkward cases make an item (created at a work time of the past year), a text and a PDF. */
interface ItemMaker {
  item(
    input: Omit<PlannedDriveItem, "createdTime" | "modifiedTime" | "revisions" | "permissions"> &
      Partial<Pick<PlannedDriveItem, "permissions">>,
  ): PlannedDriveItem;
  text(count: number): Buffer;
  document(title: string): Buffer;
}

/** The shared drive's folder, a contract PDF in it, and a memo (a Google Doc). */
function sharedDriveItems(make: ItemMaker, member: string): PlannedDriveItem[] {
  const { item, text, document } = make;
  return [
    item({
      key: "awkward-drive/contracts",
      ownerEmail: member,
      sharedDriveKey: "awkward-drive",
      name: "Verträge",
      mimeType: FOLDER,
    }),
    item({
      key: "awkward-drive/contract",
      ownerEmail: member,
      sharedDriveKey: "awkward-drive",
      parentKey: "awkward-drive/contracts",
      name: "Rahmenvertrag Bergbahnen.pdf",
      mimeType: "application/pdf",
      content: document("Rahmenvertrag Bergbahnen"),
    }),
    item({
      key: "awkward-drive/memo",
      ownerEmail: member,
      sharedDriveKey: "awkward-drive",
      name: "Aktennotiz Haftung",
      mimeType: GOOGLE_DOC,
      content: text(6),
    }),
  ];
}

/** Folder "Spezialfälle": a Form, a Site, a My Map, a Jamboard, a Drawing, an Apps Script, a PDF and its shortcut. */
function specialFolderItems(make: ItemMaker, member: string, folder: string): PlannedDriveItem[] {
  const { item, text, document } = make;
  return [
    item({ key: folder, ownerEmail: member, name: "Spezialfälle", mimeType: FOLDER }),
    item({
      key: "awkward:form",
      ownerEmail: member,
      parentKey: folder,
      name: "Umfrage Teamanlass",
      mimeType: GOOGLE_FORM,
      content: text(3),
    }),
    item({
      key: "awkward:site",
      ownerEmail: member,
      parentKey: folder,
      name: "Intranet Alpvault",
      mimeType: GOOGLE_SITE,
      content: text(3),
    }),
    item({
      key: "awkward:map",
      ownerEmail: member,
      parentKey: folder,
      name: "Wanderrouten Teamausflug",
      mimeType: GOOGLE_MAP,
      content: text(2),
    }),
    item({
      key: "awkward:jam",
      ownerEmail: member,
      parentKey: folder,
      name: "Brainstorming Q3",
      mimeType: GOOGLE_JAM,
      content: text(2),
    }),
    item({
      key: "awkward:drawing",
      ownerEmail: member,
      parentKey: folder,
      name: "Skizze Serverraum",
      mimeType: GOOGLE_DRAWING,
      content: Buffer.from("Rack A: Firewall, Switch\nRack B: Backup-Server\nUSV"),
    }),
    item({
      key: "awkward:script",
      ownerEmail: member,
      parentKey: folder,
      name: "Spesen-Automatisierung",
      mimeType: GOOGLE_SCRIPT,
      content: Buffer.from(
        "function sendReminder() {\n  MailApp.sendEmail(Session.getActiveUser().getEmail(), 'Spesen', 'Bitte Spesen erfassen.');\n}\n",
      ),
    }),
    item({
      key: "awkward:plan",
      ownerEmail: member,
      parentKey: folder,
      name: "Reiseplan Messe Basel.pdf",
      mimeType: "application/pdf",
      content: document("Reiseplan Messe Basel"),
    }),
    item({
      key: "awkward:shortcut",
      ownerEmail: member,
      name: "Reiseplan Messe Basel.pdf",
      mimeType: SHORTCUT,
      shortcutTargetKey: "awkward:plan",
    }),
  ];
}

/**
 * Drive's awkward cases for an organisation, one of each, as real tenants have them:
 * - a shared drive ("Rechtsdienst") whose members are two domain users but not the super admin;
 * - in the first non-admin user's My Drive, folder "Spezialfälle": a Form, a Site, a My Map, a Jamboard
 *   (none exportable), a Drawing and an Apps Script project (exportable), a PDF and a shortcut to it,
 *   and a huge video whose bytes are generated from the seed (`hugeFileBytes`, 3 GiB by default);
 * - a PDF owned by someone outside the domain, shared with that user as writer;
 * - a PDF of the super admin, shared with that user as reader, with downloads restricted for readers.
 */
export function planAwkwardDrive(
  plan: Pick<OrganisationPlan, "seed" | "users" | "referenceDate">,
  options: { hugeFileBytes?: number } = {},
): AwkwardDrive {
  const random = Random.of("awkward-drive", plan.seed);
  const end = Date.parse(plan.referenceDate);
  const active = plan.users.filter((user) => !user.suspended);
  const admin = active.find((user) => user.isAdmin)?.email;
  const others = active.filter((user) => !user.isAdmin).map((user) => user.email);
  const [member, secondMember] = others;
  if (!admin || !member || !secondMember) return { items: [], sharedDrives: [], externalPeople: [] };
  const time = (): string => iso(workTime(random, end - 365 * DAY_MS, end - 2 * DAY_MS));
  const item = (
    input: Omit<PlannedDriveItem, "createdTime" | "modifiedTime" | "revisions" | "permissions"> &
      Partial<Pick<PlannedDriveItem, "permissions">>,
  ): PlannedDriveItem => {
    const created = time();
    return { createdTime: created, modifiedTime: created, revisions: [], permissions: [], ...input };
  };
  const text = (count: number): Buffer => Buffer.from(sentences(random, "de", count).join("\n"));
  const document = (title: string): Buffer =>
    pdf(random, title, sentences(random, "de", 12), random.int(20_000, 60_000));
  const make: ItemMaker = { item, text, document };

  const sharedDrives: PlannedSharedDrive[] = [
    {
      key: "awkward-drive",
      name: "Rechtsdienst",
      creatorEmail: member,
      createdTime: iso(end - 500 * DAY_MS),
      members: [
        { type: "user", role: "organizer", emailAddress: member },
        { type: "user", role: "reader", emailAddress: secondMember },
      ],
    },
  ];
  const external: PlannedExternalPerson = {
    email: "lena.meier@bergwerk-partner.test",
    displayName: "Lena Meier",
  };
  const folder = "awkward:folder";
  const items: PlannedDriveItem[] = [
    ...sharedDriveItems(make, member),
    ...specialFolderItems(make, member, folder),
    item({
      key: "awkward:huge",
      ownerEmail: member,
      parentKey: folder,
      name: "Firmenvideo 2026 (Rohschnitt).mp4",
      mimeType: "video/mp4",
      generated: { seed: `awkward-drive:${plan.seed}:video`, size: options.hugeFileBytes ?? HUGE_FILE_BYTES },
    }),
    item({
      key: "awkward:external",
      ownerEmail: external.email,
      name: "Offerte Bergwerk Partner.pdf",
      mimeType: "application/pdf",
      content: document("Offerte Bergwerk Partner"),
      permissions: [{ type: "user", role: "writer", emailAddress: member }],
    }),
    item({
      key: "awkward:restricted",
      ownerEmail: admin,
      name: "Lohnbänder 2026.pdf",
      mimeType: "application/pdf",
      content: document("Lohnbaender 2026"),
      permissions: [{ type: "user", role: "reader", emailAddress: member }],
      restrictions: { downloadRestriction: { restrictedForReaders: true, restrictedForWriters: false } },
    }),
  ];
  return { items, sharedDrives, externalPeople: [external] };
}

/** The plan with the awkward cases added (a new plan; the one given is not changed). */
export function withAwkwardDrive(
  plan: OrganisationPlan,
  options: { hugeFileBytes?: number } = {},
): OrganisationPlan {
  const awkward = planAwkwardDrive(plan, options);
  return {
    ...plan,
    sharedDrives: [...plan.sharedDrives, ...awkward.sharedDrives],
    driveItems: [...plan.driveItems, ...awkward.items],
    externalPeople: [...(plan.externalPeople ?? []), ...awkward.externalPeople],
  };
}
