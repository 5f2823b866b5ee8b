/**
 * Generated Drive content: each user's My Drive (folders two to three levels deep, PDFs, images, text, CSV,
 * Google Docs/Sheets/Slides, revisions, sharing) and shared drives with members and files, as plain data.
 */
import { type PermissionInput } from "../drive/store-model";
import {
  FOLDER_NAMES,
  DOCUMENT_TITLES,
  contentLanguage,
  csvOfSize,
  sentences,
  textOfSize,
  type ContentLanguage,
} from "./content";
import { DAY_MS, makeBlob } from "./mail-build";
import { workTime } from "./mail-people";
import { Random } from "./random";
import type { Blob, PlannedDriveItem, PlannedSharedDrive, PlannedUser } from "./types";

export const FOLDER = "application/vnd.google-apps.folder";
export const GOOGLE_DOC = "application/vnd.google-apps.document";
export const GOOGLE_SHEET = "application/vnd.google-apps.spreadsheet";
export const GOOGLE_SLIDES = "application/vnd.google-apps.presentation";
export const GOOGLE_FORM = "application/vnd.google-apps.form";
export const GOOGLE_SITE = "application/vnd.google-apps.site";
export const GOOGLE_MAP = "application/vnd.google-apps.map";
export const GOOGLE_JAM = "application/vnd.google-apps.jam";
export const GOOGLE_DRAWING = "application/vnd.google-apps.drawing";
export const GOOGLE_SCRIPT = "application/vnd.google-apps.script";
export const SHORTCUT = "application/vnd.google-apps.shortcut";

type FileKind = "pdf" | "png" | "jpeg" | "csv" | "txt" | "doc" | "sheet" | "slides";

const SUBFOLDERS = [
  "2025",
  "2026",
  "Entwürfe",
  "Brouillons",
  "Bozze",
  "Kunden",
  "Q1",
  "Q2",
  "Q3",
  "Q4",
  "Alt",
];

interface TreeContext {
  random: Random;
  items: PlannedDriveItem[];
  start: number;
  end: number;
  maxSize: number;
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function fileContent(
  random: Random,
  kind: FileKind,
  language: ContentLanguage,
  size: number,
  date: number,
): Blob {
  const title = `${random.pick(DOCUMENT_TITLES[language])}`;
  switch (kind) {
    case "doc":
      return {
        name: title,
        mimeType: GOOGLE_DOC,
        content: Buffer.from(textOfSize(random, language, Math.min(size, 20_000))),
      };
    case "sheet":
      return {
        name: `${title} (Tabelle)`,
        mimeType: GOOGLE_SHEET,
        content: Buffer.from(csvOfSize(random, Math.min(size, 20_000))),
      };
    case "slides": {
      const slides = Array.from({ length: random.int(3, 12) }, (_, index) =>
        [
          `Slide ${index + 1}: ${random.pick(DOCUMENT_TITLES[language])}`,
          ...sentences(random, language, 3).map((s) => `• ${s}`),
        ].join("\n"),
      );
      return {
        name: `${title} – Präsentation`,
        mimeType: GOOGLE_SLIDES,
        content: Buffer.from(slides.join("\n\n")),
      };
    }
    case "pdf":
    case "png":
    case "jpeg":
    case "csv":
    case "txt":
      return makeBlob(random, kind, size, language, date);
  }
}

/** A new version of a file's content (a Doc gains a paragraph; a blob is regenerated at a similar size). */
function nextVersion(
  random: Random,
  item: PlannedDriveItem,
  previous: Buffer,
  language: ContentLanguage,
): Buffer {
  if (item.mimeType.startsWith("application/vnd.google-apps.") || item.mimeType.startsWith("text/")) {
    return Buffer.concat([
      previous,
      Buffer.from(`\n${sentences(random, language, random.int(1, 3)).join(" ")}\n`),
    ]);
  }
  const kind: FileKind =
    item.mimeType === "application/pdf" ? "pdf" : item.mimeType === "image/png" ? "png" : "jpeg";
  return makeBlob(random, kind as "pdf" | "png" | "jpeg", Math.max(200, previous.length), language, 0)
    .content;
}

function addFile(
  context: TreeContext,
  input: {
    key: string;
    ownerEmail: string;
    parentKey?: string;
    sharedDriveKey?: string;
    language: ContentLanguage;
    editors: string[];
    shareWith: string[];
    domain: string;
    blob?: Blob;
  },
): void {
  const { random } = context;
  const created = workTime(random, context.start, context.end - 2 * DAY_MS);
  const kind = random.weighted<FileKind>([
    ["pdf", 3],
    ["jpeg", 2],
    ["png", 1],
    ["txt", 1],
    ["csv", 1],
    ["doc", 2],
    ["sheet", 1],
    ["slides", 1],
  ]);
  const blob =
    input.blob ?? fileContent(random, kind, input.language, random.logUniform(200, context.maxSize), created);
  const item: PlannedDriveItem = {
    key: input.key,
    ownerEmail: input.ownerEmail,
    sharedDriveKey: input.sharedDriveKey,
    parentKey: input.parentKey,
    name: blob.name,
    mimeType: blob.mimeType,
    content: blob.content,
    createdTime: iso(created),
    modifiedTime: iso(created),
    revisions: [],
    permissions: [],
  };
  if (!input.blob && random.chance(0.2)) {
    let previous = blob.content;
    let time = created;
    for (let index = 0, count = random.int(1, 2); index < count; index += 1) {
      time = Math.min(time + random.logUniform(3_600_000, 60 * DAY_MS), context.end - 60_000);
      previous = nextVersion(random, item, previous, input.language);
      item.revisions.push({
        content: previous,
        userEmail: random.chance(0.7) ? input.ownerEmail : random.pick([input.ownerEmail, ...input.editors]),
        modifiedTime: iso(time),
      });
    }
    item.modifiedTime = iso(time);
  }
  if (!input.sharedDriveKey && input.shareWith.length > 0 && random.chance(0.2)) {
    for (const email of random.sample(input.shareWith, random.int(1, 2))) {
      item.permissions.push({
        type: "user",
        role: random.weighted<PermissionInput["role"]>([
          ["reader", 3],
          ["writer", 2],
          ["commenter", 1],
        ]),
        emailAddress: email,
      });
    }
  }
  if (!input.sharedDriveKey && random.chance(0.03))
    item.permissions.push({ type: "domain", role: "reader", domain: input.domain });
  context.items.push(item);
}

function addFolder(
  context: TreeContext,
  key: string,
  ownerEmail: string,
  name: string,
  parentKey?: string,
  sharedDriveKey?: string,
): void {
  const created = workTime(context.random, context.start, context.end - 30 * DAY_MS);
  context.items.push({
    key,
    ownerEmail,
    sharedDriveKey,
    parentKey,
    name,
    mimeType: FOLDER,
    createdTime: iso(created),
    modifiedTime: iso(created),
    revisions: [],
    permissions: [],
  });
}

/** Folder keys of a tree: top-level folders, some subfolders, and now and then a third level. */
function addFolders(
  context: TreeContext,
  prefix: string,
  ownerEmail: string,
  language: ContentLanguage,
  sharedDriveKey?: string,
): string[] {
  const { random } = context;
  const folders: string[] = [];
  for (const name of random.sample(FOLDER_NAMES[language], random.int(2, 4))) {
    const key = `${prefix}/${folders.length}`;
    addFolder(context, key, ownerEmail, name, undefined, sharedDriveKey);
    folders.push(key);
    for (const sub of random.sample(SUBFOLDERS, random.int(0, 2))) {
      const subKey = `${prefix}/${folders.length}`;
      addFolder(context, subKey, ownerEmail, sub, key, sharedDriveKey);
      folders.push(subKey);
      if (random.chance(0.3)) {
        const deepKey = `${prefix}/${folders.length}`;
        addFolder(context, deepKey, ownerEmail, random.pick(SUBFOLDERS), subKey, sharedDriveKey);
        folders.push(deepKey);
      }
    }
  }
  return folders;
}

/** Every user's My Drive and the shared drives, parents before children. */
export function planDrive(input: {
  seed: number;
  domain: string;
  users: PlannedUser[];
  sharedBlobs: Blob[];
  filesPerUser: (random: Random) => number;
  maxSize: number;
  end: number;
}): { items: PlannedDriveItem[]; sharedDrives: PlannedSharedDrive[] } {
  const items: PlannedDriveItem[] = [];
  const start = input.end - 730 * DAY_MS;
  const active = input.users.filter((user) => !user.suspended).map((user) => user.email);
  for (const user of input.users) {
    const random = Random.of("drive", input.seed, user.email);
    const context: TreeContext = { random, items, start, end: input.end, maxSize: input.maxSize };
    const prefix = `my:${user.email}`;
    const total = input.filesPerUser(random);
    const language = contentLanguage(random, user.language);
    const folders = addFolders(context, prefix, user.email, language);
    const others = active.filter((email) => email !== user.email);
    const shared = random.sample(input.sharedBlobs, random.int(1, 2));
    let index = folders.length;
    for (const blob of shared) {
      addFile(context, {
        key: `${prefix}/${index++}`,
        ownerEmail: user.email,
        parentKey: random.pick(folders),
        language,
        editors: [],
        shareWith: [],
        domain: input.domain,
        blob,
      });
    }
    while (index < total) {
      const parentKey = random.chance(0.25) ? undefined : random.pick(folders);
      addFile(context, {
        key: `${prefix}/${index++}`,
        ownerEmail: user.email,
        parentKey,
        language: contentLanguage(random, user.language),
        editors: others,
        shareWith: others,
        domain: input.domain,
      });
    }
  }
  const sharedDrives = planSharedDrives(input.seed, input.users, active, input.end);
  for (const drive of sharedDrives) {
    const random = Random.of("shared-drive", input.seed, drive.key);
    const context: TreeContext = {
      random,
      items,
      start: Date.parse(drive.createdTime),
      end: input.end,
      maxSize: input.maxSize,
    };
    const editors = drive.members
      .filter((member) => member.role !== "reader" && member.role !== "commenter")
      .map((member) => member.emailAddress as string);
    const prefix = `shared:${drive.key}`;
    const folders = addFolders(context, prefix, drive.creatorEmail, "de", drive.key);
    const total = folders.length + input.filesPerUser(random);
    for (let index = folders.length; index < total; index += 1) {
      const parentKey = random.chance(0.2) ? undefined : random.pick(folders);
      addFile(context, {
        key: `${prefix}/${index}`,
        ownerEmail: random.pick(editors),
        parentKey,
        sharedDriveKey: drive.key,
        language: contentLanguage(random, "de"),
        editors,
        shareWith: [],
        domain: input.domain,
      });
    }
  }
  return { items, sharedDrives };
}

function planSharedDrives(
  seed: number,
  users: PlannedUser[],
  active: string[],
  end: number,
): PlannedSharedDrive[] {
  const random = Random.of("shared-drives", seed);
  const admin = users.find((user) => user.isAdmin)?.email ?? active[0];
  if (!admin) return [];
  const names =
    users.length > 12 ? ["Finance", "Marketing", "Projekte", "Personal"] : ["Finance", "Marketing"];
  return names.map((name, index) => {
    const others = random.sample(
      active.filter((email) => email !== admin),
      random.int(2, 4),
    );
    const members: PermissionInput[] = [{ type: "user", role: "organizer", emailAddress: admin }];
    const roles: PermissionInput["role"][] = ["fileOrganizer", "writer", "commenter", "reader"];
    others.forEach((email, position) =>
      members.push({
        type: "user",
        role: roles[position % roles.length] as PermissionInput["role"],
        emailAddress: email,
      }),
    );
    // The documented non-admin sees the first shared drive.
    const nonAdmin = users.find((user) => !user.isAdmin && !user.suspended)?.email;
    if (index === 0 && nonAdmin && !members.some((member) => member.emailAddress === nonAdmin)) {
      members.push({ type: "user", role: "writer", emailAddress: nonAdmin });
    }
    return {
      key: `drive-${index}`,
      name,
      creatorEmail: admin,
      createdTime: iso(end - (700 - index * 30) * DAY_MS),
      members,
    };
  });
}
