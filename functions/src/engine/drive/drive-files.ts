/**
 * What the Drive source asks Drive for and how it reads a file: the fields, the Google types and their
 * export formats, the version and content keys, and Drive's answer to a page token it does not accept.
 */
import type { drive_v3 } from "@googleapis/drive";
import { googleReason, googleStatus } from "../sources/google-errors";

/**
 * A backed-up Drive: a user's My Drive, or a shared drive read as one of its own members (`actAs`: a super
 * admin sees a shared drive's members only, not its files, unless they are a member: see
 * `findDriveMember`).
 */
export type DriveResource =
  | {
      kind: "user";
      email: string;
      /**
       * The organisation's domains: files shared with the user by an owner of another domain are backed
       * up (the user's own domain is always one of them).
       */
      domains?: string[];
    }
  | { kind: "shared-drive"; driveId: string; actAs: string };

/** The path root of files shared with the user (Drive's own name for them). */
export const SHARED_WITH_ME = "Shared with me";

/** One Drive call through the run's caller, as the source's user (`method`: Google's method id). */
export type DriveCall = <T>(method: string, send: () => Promise<T>) => Promise<T>;

export const GOOGLE_FOLDER = "application/vnd.google-apps.folder";
export const GOOGLE_SHORTCUT = "application/vnd.google-apps.shortcut";
/** A Google Vid: downloaded as MP4 through `files.download` only (no `exportLinks`). */
export const GOOGLE_VID = "application/vnd.google-apps.vid";
const GOOGLE_PREFIX = "application/vnd.google-apps.";

/** The office format each Google type is exported to (a Vid: MP4, through `files.download`). */
export const EXPORT_TYPES: Record<string, string> = {
  "application/vnd.google-apps.document":
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.google-apps.spreadsheet":
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.google-apps.presentation":
    "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/vnd.google-apps.drawing": "application/pdf",
  "application/vnd.google-apps.script": "application/vnd.google-apps.script+json",
  [GOOGLE_VID]: "video/mp4",
};
export const FILE_FIELDS = [
  "id",
  "name",
  "mimeType",
  "parents",
  "driveId",
  "trashed",
  "version",
  "headRevisionId",
  "modifiedTime",
  "createdTime",
  "size",
  "md5Checksum",
  "description",
  "properties",
  "appProperties",
  "ownedByMe",
  "owners(emailAddress)",
  "exportLinks",
  "shortcutDetails",
].join(",");

/** Drive's answer to a page token it does not accept: 404 "not valid", or 400 naming `pageToken`. */
export function invalidPageToken(error: unknown): boolean {
  const status = googleStatus(error);
  if (status === 404) return true;
  if (status !== 400) return false;
  const reason = googleReason(error);
  const message = JSON.stringify((error as { response?: { data?: unknown } }).response?.data ?? "");
  return reason === "invalid" || /pageToken/i.test(message);
}

export function domainOf(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1).toLowerCase();
}

export function isGoogleType(mimeType: string): boolean {
  return mimeType.startsWith(GOOGLE_PREFIX);
}

export function isFile(value: unknown): value is drive_v3.Schema$File {
  return typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string";
}

export function keysOf(file: drive_v3.Schema$File): { versionKey: string; contentKey: string } {
  const version = file.version ?? "";
  const mimeType = file.mimeType ?? "";
  return {
    versionKey: version,
    contentKey: isGoogleType(mimeType)
      ? `${version}:${file.modifiedTime ?? ""}`
      : (file.headRevisionId ?? ""),
  };
}
