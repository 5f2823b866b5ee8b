/**
 * The plan of a generated organisation as plain data: customer, users, mailboxes, Drive trees and shared
 * drives. `generateOrganisation` applies a plan to the emulator's stores; tests inspect it directly.
 */
import { type FileRestrictions, type PermissionInput } from "../drive/store-model";
import type { ContentLanguage } from "./content";
import type { Language } from "./names";

export type ProfileName = "demo" | "bench";

export interface PlanOptions {
  profile: ProfileName;
  seed?: number;
  /** Number of users (demo: its roster of 8; bench: 10). */
  users?: number;
  /** Messages per mailbox (demo: 30–60 each; bench: 2,000). */
  messagesPerUser?: number;
  /** Files per My Drive, folders included (demo: 12–20 each; bench: 40). */
  filesPerUser?: number;
  /**
   * Adds Drive's awkward cases (`planAwkwardDrive`): a shared drive without the super admin, a Form, a Site,
   * a My Map, a Jamboard, a Drawing, an Apps Script project, a shortcut, a huge generated file, a file owned
   * outside the domain and one whose download is restricted for readers. Off unless asked for.
   */
  awkwardDrive?: boolean;
  /** Size of the awkward cases' huge generated file (default 3 GiB). */
  hugeFileBytes?: number;
  /**
   * Adds Gmail's awkward cases: a Drive-only user (Gmail off: a Drive licence only, or Gmail turned off for
   * their org unit; they have a My Drive and no mailbox) and one large message with a large attachment in
   * the second user's mailbox (`largeMessageBytes`). Off unless asked for.
   */
  awkwardMail?: boolean;
  /** Size of the awkward mail's large message (default 30 MB; Gmail takes up to 150 MB by upload). */
  largeMessageBytes?: number;
}

export interface PlannedUser {
  email: string;
  givenName: string;
  familyName: string;
  language: Language;
  title: string;
  isAdmin: boolean;
  suspended: boolean;
  creationTime: string;
  /** User labels of the mailbox (parents before their nested labels, e.g. `Projects`, `Projects/Alpvault`). */
  labels: string[];
  /** Messages this mailbox holds, organisation-wide announcements included. */
  messageCount: number;
  /** false: a user without Gmail (no mailbox; Gmail calls answer failedPrecondition). Absent: Gmail on. */
  gmailEnabled?: boolean;
}

/** A file that is byte-identical wherever it appears (several mailboxes, several My Drives). */
export interface Blob {
  name: string;
  mimeType: string;
  content: Buffer;
}

export interface PlannedMessage {
  /** The RFC 822 bytes. */
  raw: Buffer;
  messageId: string;
  /** Message-IDs this one answers (References), oldest first; empty for a thread's first message. */
  references: string[];
  /** System label ids: INBOX, SENT, UNREAD, STARRED, IMPORTANT, SPAM, TRASH. */
  labelIds: string[];
  /** User label names (see PlannedUser.labels). */
  userLabels: string[];
  internalDate: number;
}

/** A message sent to everyone (the same bytes in every mailbox). */
export interface PlannedBroadcast extends PlannedMessage {
  senderEmail: string;
}

export interface PlannedRevision {
  content: Buffer;
  userEmail: string;
  modifiedTime: string;
}

export interface PlannedDriveItem {
  /** Plan-local key; parents come before their children. */
  key: string;
  /** My Drive owner, or the creator of a shared-drive item. */
  ownerEmail: string;
  /** Key of the shared drive holding it. */
  sharedDriveKey?: string;
  parentKey?: string;
  name: string;
  mimeType: string;
  /** Blob bytes, or a Google Doc's text. Absent for folders. */
  content?: Buffer;
  createdTime: string;
  modifiedTime: string;
  /** Later versions, oldest first (the last one is the head). */
  revisions: PlannedRevision[];
  /** Sharing with other people (besides the owner). */
  permissions: PermissionInput[];
  /** Instead of `content`: bytes generated from a seed, never held in memory or saved (huge files). */
  generated?: { seed: string; size: number };
  /** For a shortcut: the key of its target (planned before it). */
  shortcutTargetKey?: string;
  /** Download and copy restrictions of the file. */
  restrictions?: FileRestrictions;
}

/** Someone outside the organisation (a partner, a Gmail account) who owns files shared into it. */
export interface PlannedExternalPerson {
  email: string;
  displayName: string;
}

export interface PlannedSharedDrive {
  key: string;
  name: string;
  creatorEmail: string;
  createdTime: string;
  members: PermissionInput[];
}

export interface OrganisationPlan {
  profile: ProfileName;
  seed: number;
  domain: string;
  installed: boolean;
  scopes: string[];
  /** The generated world's "now": every date is before it. */
  referenceDate: string;
  users: PlannedUser[];
  /** Files sent to several mailboxes and kept in several My Drives, byte-identical. */
  sharedBlobs: Blob[];
  broadcasts: PlannedBroadcast[];
  sharedDrives: PlannedSharedDrive[];
  /** My Drive and shared drive items, parents first. */
  driveItems: PlannedDriveItem[];
  /** Owners of driveItems from outside the organisation (`ownerEmail` names them). */
  externalPeople?: PlannedExternalPerson[];
  /** Per-mailbox messages besides broadcasts, and their size model. */
  mail: {
    ownMessages: Record<string, number>;
    attachmentScale: "demo" | "bench";
    /** One message of about `bytes` (a large attachment) added to `email`'s mailbox, its newest. */
    largeMessage?: { email: string; bytes: number };
  };
}

export interface Correspondent {
  name: string;
  email: string;
  language: ContentLanguage;
  internal: boolean;
}
