/**
 * Drive's error answers, one place for their exact status, reason, message and location, as Google's
 * "Resolve errors" guide and real answers show them.
 */
import { GoogleApiError } from "../http";

export function invalidValue(location: string, message = "Invalid Value"): GoogleApiError {
  return new GoogleApiError(400, message, "invalid", { extra: { location, locationType: "parameter" } });
}

export function required(location: string): GoogleApiError {
  return new GoogleApiError(400, `Required parameter: ${location}`, "required", {
    extra: { location, locationType: "parameter" },
  });
}

export function fileNotFound(fileId: string): GoogleApiError {
  return new GoogleApiError(404, `File not found: ${fileId}.`, "notFound", {
    extra: { location: "fileId", locationType: "parameter" },
  });
}

export function driveNotFound(driveId: string): GoogleApiError {
  return new GoogleApiError(404, `Shared drive not found: ${driveId}`, "notFound", {
    extra: { location: "driveId", locationType: "parameter" },
  });
}

export function permissionNotFound(permissionId: string): GoogleApiError {
  return new GoogleApiError(404, `Permission not found: ${permissionId}.`, "notFound", {
    extra: { location: "permissionId", locationType: "parameter" },
  });
}

export function insufficientFilePermissions(): GoogleApiError {
  return new GoogleApiError(
    403,
    "The user does not have sufficient permissions for this file.",
    "insufficientFilePermissions",
  );
}

/** `useDomainAdminAccess=true` from someone who is not an administrator. */
export function insufficientAdministratorPrivileges(): GoogleApiError {
  return new GoogleApiError(
    403,
    "The user does not have sufficient permissions for this file.",
    "insufficientAdministratorPrivileges",
  );
}

/** `alt=media` on a Google-type file (Docs Editors, Forms, shortcuts, folders, ...). */
export function fileNotDownloadable(): GoogleApiError {
  return new GoogleApiError(
    403,
    "Only files with binary content can be downloaded. Use Export with Docs Editors files.",
    "fileNotDownloadable",
    { extra: { location: "alt", locationType: "parameter" } },
  );
}

/** The owner or an organizer restricted downloads for the caller's role. */
export function cannotDownloadFile(): GoogleApiError {
  return new GoogleApiError(403, "This file cannot be downloaded by the user.", "cannotDownloadFile");
}

/** The same restriction, met by an export. */
export function cannotExportFile(): GoogleApiError {
  return new GoogleApiError(403, "This file cannot be exported by the user.", "cannotExportFile");
}

export function downloadQuotaExceeded(): GoogleApiError {
  return new GoogleApiError(
    403,
    "The download quota for this file has been exceeded.",
    "downloadQuotaExceeded",
  );
}

export function cannotDownloadAbusiveFile(): GoogleApiError {
  return new GoogleApiError(
    403,
    "This file has been identified as malware or spam and cannot be downloaded.",
    "cannotDownloadAbusiveFile",
  );
}

/** The caller's domain turned Drive apps off: every Drive call of its users answers this. */
export function domainPolicy(): GoogleApiError {
  return new GoogleApiError(403, "The domain administrators have disabled Drive apps.", "domainPolicy");
}

/** `files.export` of a file that is not a Google-type document (blobs, folders, shortcuts). */
export function fileNotExportable(): GoogleApiError {
  return new GoogleApiError(403, "Export only supports Docs Editors files.", "fileNotExportable");
}

/** An export (or import) format Google does not offer for the type: Forms, Sites, My Maps, Jamboards. */
export function conversionNotSupported(): GoogleApiError {
  return new GoogleApiError(400, "The requested conversion is not supported.", "badRequest", {
    extra: { location: "convertTo", locationType: "parameter" },
  });
}

export function exportSizeLimitExceeded(): GoogleApiError {
  return new GoogleApiError(403, "This file is too large to be exported.", "exportSizeLimitExceeded");
}

export function rangeNotSatisfiable(size: number): GoogleApiError {
  return new GoogleApiError(416, "Request range not satisfiable", "requestedRangeNotSatisfiable", {
    headers: { "content-range": `bytes */${size}` },
  });
}
