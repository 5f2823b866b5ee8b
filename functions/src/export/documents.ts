/**
 * The export module's stored documents, one schema each (lib/stored.ts): `exports/{exportId}` (as
 * `repo.ts` `createExport` writes it, then its checkpoint, progress, lease and outcome),
 * `exports/{id}/problems/{itemDocId}` (each item left out, with why) and `exports/{id}/checkpoint/tail`.
 * An export written before source bytes were counted, before its start, deliveries or downloads were
 * recorded, or before a label or folder could be named, reads as none counted, not started, never delivered,
 * never downloaded and of chosen items or a whole resource.
 */
import { z } from "zod/mini";
import {
  EXPORT_FORMAT_NAMES,
  EXPORT_SERVICES,
  type ExportFormat,
  type ExportJob,
  type ExportProblem,
  type ExportProgress,
  type ExportService,
} from "@alpvault/contracts/exports";
import { exportProblemSchema } from "@alpvault/contracts/schemas/exports";
import { storedKind, storedKindWithId } from "../lib/stored";

/**
 * Where a running export stands, saved at each checkpoint: what of the file is in the bucket (`uploaded`
 * bytes through the resumable session `session`, plus the tail document), and where the items stand.
 */
export interface ExportCheckpoint {
  /** The resumable upload session's URI (the upload's bytes go there across deliveries). */
  session: string | null;
  /** Bytes the session holds (a multiple of 256 KiB until the last request). */
  uploaded: number;
  /** The length of the tail kept in `checkpoint/tail` (the file so far = uploaded + tail). */
  tail: number;
  /** Explicit items: how many are settled; all items: the last item key settled. */
  index: number;
  lastItemKey: string | null;
  /** ZIP formats: entries written, and the central directory parts written as objects so far. */
  entries: number;
  directoryParts: number;
  directoryBytes: number;
  /** The source bytes of the items settled so far (written or left out), for the bytes left. */
  sourceBytes: number;
  /**
   * What the format's writer keeps between deliveries (formats.ts), decoded by that writer's own schema;
   * null when it keeps nothing (an export written before formats kept any reads so too).
   */
  format: Record<string, unknown> | null;
}

/** What an export records of its progress (the API adds its pace and time left while it runs). */
export type StoredExportProgress = Pick<
  ExportProgress,
  "total" | "exported" | "failed" | "bytes" | "totalBytes"
>;

export interface StoredExport extends Omit<ExportJob, "progress"> {
  progress: StoredExportProgress;
  /** When a delivery first took it (its pace is measured from then). */
  startedAt: string | null;
  itemIds: string[] | null;
  objectName: string;
  checkpoint: ExportCheckpoint;
  lease: { holder: string; until: string } | null;
  /** How many deliveries have worked on it. */
  deliveries: number;
}

const text = z.nullable(z.string());
const counted = z._default(z.number(), 0);

const checkpointSchema: z.ZodMiniType<ExportCheckpoint> = z.object({
  session: text,
  uploaded: z.number(),
  tail: z.number(),
  index: z.number(),
  lastItemKey: text,
  entries: z.number(),
  directoryParts: z.number(),
  directoryBytes: z.number(),
  sourceBytes: counted,
  format: z._default(z.nullable(z.record(z.string(), z.unknown())), null),
});

/** `exports/{exportId}`. */
export const EXPORT = storedKindWithId<StoredExport>(
  "export",
  "exportId",
  z.object({
    exportId: z.string(),
    state: z.enum(["pending", "running", "succeeded", "failed", "expired"]),
    service: z.enum(EXPORT_SERVICES as [ExportService, ...ExportService[]]),
    format: z.enum(EXPORT_FORMAT_NAMES as [ExportFormat, ...ExportFormat[]]),
    resourceId: z.string(),
    resourceName: z.string(),
    fileName: z.string(),
    objectName: z.string(),
    itemIds: z.nullable(z.array(z.string())),
    asOf: text,
    // Exports asked for before a label or folder could be named hold chosen items or a whole resource.
    within: z._default(text, null),
    requestedAt: z.string(),
    requestedBy: z.string(),
    startedAt: z._default(text, null),
    finishedAt: text,
    expiresAt: text,
    progress: z.object({
      total: z.number(),
      exported: z.number(),
      failed: z.number(),
      bytes: z.number(),
      totalBytes: counted,
    }),
    failureReason: text,
    problems: z.array(exportProblemSchema),
    downloads: counted,
    lastDownloadedAt: z._default(text, null),
    checkpoint: checkpointSchema,
    lease: z._default(z.nullable(z.object({ holder: z.string(), until: z.string() })), null),
    deliveries: counted,
  }),
);

/** `exports/{id}/problems/{itemDocId}`: an item left out (a name or reason not written reads as empty). */
export const EXPORT_PROBLEM = storedKind<ExportProblem>(
  "export problem",
  z.object({ itemKey: z.string(), name: z._default(z.string(), ""), reason: z._default(z.string(), "") }),
);

/** `exports/{id}/checkpoint/tail`: the file's bytes after its last full upload block. */
export const EXPORT_TAIL = storedKind<{ bytes: Uint8Array }>(
  "export tail",
  z.object({ bytes: z.custom<Uint8Array>((value) => value instanceof Uint8Array) }),
);
