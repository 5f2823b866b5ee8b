/**
 * Drive v3 revisions: `revisions.list`, `revisions.get` (metadata or `alt=media`) and `revisions.update`
 * (`keepForever`).
 */
import type { Principal } from "../principal";
import { GoogleApiError, intParam, type RequestContext } from "../http";
import {
  READ_SCOPES,
  WRITE_SCOPES,
  decodeOffsetToken,
  defaultFields,
  encodeOffsetToken,
  optionalBool,
  requireRole,
} from "./common";
import { GOOGLE_SHORTCUT } from "./google-types";
import { GOOGLE_FOLDER } from "./office";
import { DEFAULT_REVISION_FIELDS, revisionJson } from "./resources";
import { type Access, type DrivePerson, type StoredFile } from "./store-model";
import type { DriveFiles } from "./file-access";

export function registerRevisionRoutes(routes: DriveFiles): void {
  const { store, caller, render, visible, download } = routes;

  const revisionsOf = (
    context: RequestContext,
    principal: Principal,
  ): { file: StoredFile; viewer: DrivePerson; access: Access } => {
    const viewer = caller(principal);
    const { file, access } = visible(context.params.fileId ?? "", viewer, context.query);
    if (file.mimeType === GOOGLE_FOLDER || file.mimeType === GOOGLE_SHORTCUT) {
      throw new GoogleApiError(403, "The file does not support revisions.", "revisionsNotSupported");
    }
    requireRole(access, "writer");
    return { file, viewer, access };
  };

  const revisionNotFound = (revisionId: string): GoogleApiError =>
    new GoogleApiError(404, `Revision not found: ${revisionId}.`, "notFound", {
      extra: { location: "revisionId", locationType: "parameter" },
    });

  routes.add({
    method: "GET",
    path: "/drive/v3/files/:fileId/revisions",
    id: "drive.revisions.list",
    scopes: READ_SCOPES,
    handler: (context, principal) => {
      const { file, viewer } = revisionsOf(context, principal);
      const pageSize = intParam(context.query, "pageSize", { default: 200, min: 1, max: 1000 });
      const key = `revisions|${file.id}`;
      const start = decodeOffsetToken(context.query.get("pageToken"), key);
      const next =
        start + pageSize < file.revisions.length ? encodeOffsetToken(start + pageSize, key) : undefined;
      const ctx = render(viewer);
      const result = {
        kind: "drive#revisionList",
        ...(next ? { nextPageToken: next } : {}),
        revisions: file.revisions
          .slice(start, start + pageSize)
          .map((revision) => revisionJson(file, revision, ctx)),
      };
      return defaultFields(context, result, `kind,nextPageToken,revisions(${DEFAULT_REVISION_FIELDS})`);
    },
  });

  routes.add({
    method: "GET",
    path: "/drive/v3/files/:fileId/revisions/:revisionId",
    id: "drive.revisions.get",
    scopes: READ_SCOPES,
    quotaId: (context) =>
      context.query.get("alt") === "media" ? "drive.revisions.download" : "drive.revisions.get",
    handler: (context, principal) => {
      const { file, viewer, access } = revisionsOf(context, principal);
      const revisionId = context.params.revisionId ?? "";
      const revision =
        revisionId === "head" ? store.head(file) : file.revisions.find((item) => item.id === revisionId);
      if (!revision) throw revisionNotFound(revisionId);
      if (context.query.get("alt") !== "media") {
        return defaultFields(context, revisionJson(file, revision, render(viewer)), DEFAULT_REVISION_FIELDS);
      }
      return download(context, principal, file, access, revision);
    },
  });

  routes.add({
    method: "PATCH",
    path: "/drive/v3/files/:fileId/revisions/:revisionId",
    id: "drive.revisions.update",
    scopes: WRITE_SCOPES,
    handler: async (context, principal) => {
      const { file, viewer } = revisionsOf(context, principal);
      const revisionId = context.params.revisionId ?? "";
      const revision = file.revisions.find((item) => item.id === revisionId);
      if (!revision) throw revisionNotFound(revisionId);
      const keepForever = optionalBool(await context.json(), "keepForever");
      if (keepForever !== undefined) revision.keepForever = keepForever;
      return defaultFields(context, revisionJson(file, revision, render(viewer)), DEFAULT_REVISION_FIELDS);
    },
  });
}
