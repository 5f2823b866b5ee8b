/**
 * Drive v3 `files.list`: the corpora, shared-drive flags, `q` queries, `orderBy` and paging, as Google
 * answers them.
 */
import { GoogleApiError, boolParam, intParam } from "../http";
import {
  READ_SCOPES,
  allDrivesFlag,
  csv,
  decodeOffsetToken,
  defaultFields,
  encodeOffsetToken,
} from "./common";
import { driveNotFound, invalidValue } from "./errors";
import { GOOGLE_FOLDER, isDocsEditorsType } from "./office";
import { compileQuery, QueryError, type QuerySubject } from "./query";
import { DEFAULT_FILE_LIST_FIELDS, fileJson } from "./resources";
import { type DriveStore } from "./store";
import { rootIdFor, type Access, type DrivePerson, type Role, type StoredFile } from "./store-model";
import type { DriveFiles } from "./file-access";
const ORDER_KEYS: Record<string, (a: StoredFile, b: StoredFile) => number> = {
  createdTime: (a, b) => a.createdTime.localeCompare(b.createdTime),
  modifiedTime: (a, b) => a.modifiedTime.localeCompare(b.modifiedTime),
  modifiedByMeTime: (a, b) => a.modifiedTime.localeCompare(b.modifiedTime),
  recency: (a, b) => a.modifiedTime.localeCompare(b.modifiedTime),
  viewedByMeTime: (a, b) => a.modifiedTime.localeCompare(b.modifiedTime),
  sharedWithMeTime: (a, b) => a.createdTime.localeCompare(b.createdTime),
  name: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  name_natural: (a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }),
  folder: (a, b) => Number(b.mimeType === GOOGLE_FOLDER) - Number(a.mimeType === GOOGLE_FOLDER),
  starred: (a, b) => Number(b.starred) - Number(a.starred),
  quotaBytesUsed: (a, b) => (a.revisions.at(-1)?.size ?? 0) - (b.revisions.at(-1)?.size ?? 0),
};

function comparator(orderBy: string | null): ((a: StoredFile, b: StoredFile) => number) | undefined {
  if (!orderBy) return undefined;
  const keys = csv(orderBy).map((item) => {
    const [key, direction, ...rest] = item.split(/\s+/);
    const compare = ORDER_KEYS[key ?? ""];
    if (!compare || rest.length > 0 || (direction !== undefined && !/^(asc|desc)$/i.test(direction))) {
      throw invalidValue("orderBy", `Invalid field selection ${item}`);
    }
    const sign = direction?.toLowerCase() === "desc" ? -1 : 1;
    return (a: StoredFile, b: StoredFile): number => sign * compare(a, b);
  });
  return (a, b) => {
    for (const compare of keys) {
      const result = compare(a, b);
      if (result !== 0) return result;
    }
    return 0;
  };
}

function querySubject(
  store: DriveStore,
  file: StoredFile,
  access: Access,
  viewer: DrivePerson,
): QuerySubject {
  const owner = file.driveId ? undefined : store.person(file.ownerId);
  const emails = (roles: Role[]): string[] =>
    file.permissions
      .filter((permission) => roles.includes(permission.role) && permission.emailAddress)
      .map((permission) => permission.emailAddress as string)
      .concat(owner ? [owner.email] : []);
  return {
    name: file.name,
    mimeType: file.mimeType,
    trashed: file.trashed,
    starred: file.starred,
    sharedWithMe: !file.driveId && file.ownerId !== viewer.id && access.via.has("user"),
    parents: file.parents,
    owners: owner ? [owner.email] : [],
    writers: emails(["writer", "fileOrganizer", "organizer", "owner"]),
    readers: emails(["reader", "commenter", "writer", "fileOrganizer", "organizer", "owner"]),
    createdTime: file.createdTime,
    modifiedTime: file.modifiedTime,
    fullText: () => {
      const head = store.head(file);
      const text =
        head && (isDocsEditorsType(file.mimeType) || file.mimeType.startsWith("text/"))
          ? head.content.toString("utf8")
          : "";
      return `${file.name}\n${file.description ?? ""}\n${text}`;
    },
  };
}

export function registerFileListRoutes(routes: DriveFiles): void {
  const { store, caller, render } = routes;

  routes.add({
    method: "GET",
    path: "/drive/v3/files",
    id: "drive.files.list",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const { query } = context;
      const viewer = caller(principal);
      const corpora = query.get("corpora") ?? "user";
      const driveId = query.get("driveId") ?? query.get("teamDriveId") ?? undefined;
      const supportsAll = allDrivesFlag(query);
      const includeAll =
        boolParam(query, "includeItemsFromAllDrives") || boolParam(query, "includeTeamDriveItems");
      if (!["user", "drive", "allDrives", "domain"].includes(corpora)) {
        throw invalidValue(
          "corpora",
          `Invalid string value: '${corpora}'. Allowed values: [allDrives, domain, drive, user]`,
        );
      }
      if ((corpora === "drive") !== (driveId !== undefined)) {
        throw new GoogleApiError(
          400,
          "The driveId parameter must be specified if and only if corpora is set to drive.",
          "teamDriveIdRequiresTeamDriveCorpora",
        );
      }
      if ((corpora === "drive" || corpora === "allDrives") && !includeAll) {
        throw new GoogleApiError(
          403,
          "The includeItemsFromAllDrives parameter must be set to true when driveId is specified or corpora contains drive or allDrives.",
          "teamDriveItemsOnlyQueriesRequireIncludeItemsFromAllDrives",
        );
      }
      if (driveId) {
        const sharedDrive = store.drive(driveId);
        if (!sharedDrive || !store.driveRole(sharedDrive, viewer)) throw driveNotFound(driveId);
      }
      const pageSize = intParam(query, "pageSize", { default: 100, min: 1, max: 1000 });
      let predicate: ReturnType<typeof compileQuery>;
      try {
        predicate = compileQuery(query.get("q") ?? "");
      } catch (error) {
        if (error instanceof QueryError) throw invalidValue("q");
        throw error;
      }
      const order = comparator(query.get("orderBy"));
      const spaces = csv(query.get("spaces"));
      const sharedItems = includeAll && supportsAll;
      const scope = { me: viewer.email, root: rootIdFor(viewer.id) };
      const matches: StoredFile[] = [];
      if (spaces.length === 0 || spaces.includes("drive")) {
        for (const file of store.allFiles()) {
          if (driveId !== undefined && file.driveId !== driveId) continue;
          if (file.driveId && !sharedItems) continue;
          const access = store.access(file, viewer);
          if (!access) continue;
          if (!file.driveId && corpora !== "domain" && !access.via.has("owner") && !access.via.has("user"))
            continue;
          if (!file.driveId && corpora === "domain" && access.via.size === 1 && access.via.has("anyone"))
            continue;
          const subject = querySubject(store, file, access, viewer);
          if (!predicate(subject, scope)) continue;
          matches.push(file);
        }
      }
      if (order) matches.sort(order);
      const key = [query.get("q"), corpora, driveId, query.get("orderBy"), String(sharedItems)].join("|");
      const start = decodeOffsetToken(query.get("pageToken"), key);
      const page = matches.slice(start, start + pageSize);
      const next = start + pageSize < matches.length ? encodeOffsetToken(start + pageSize, key) : undefined;
      const ctx = render(viewer);
      const result = {
        kind: "drive#fileList",
        ...(next ? { nextPageToken: next } : {}),
        incompleteSearch: false,
        files: page.map((file) => fileJson(file, store.access(file, viewer) as Access, ctx)),
      };
      return defaultFields(context, result, DEFAULT_FILE_LIST_FIELDS);
    },
  });
}
