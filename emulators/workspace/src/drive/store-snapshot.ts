/** How the Drive store's files and shared drives are saved in a snapshot and read back (copies, never shared). */
import { type SerializedFile, type StoredDrive, type StoredFile } from "./store-model";

/** A file as saved: in-memory bytes as base64; streamed content as its description, never its bytes. */
export function serializeFile(file: StoredFile): SerializedFile {
  return {
    ...file,
    revisions: file.revisions.map((revision) => ({
      ...revision,
      content: revision.content.toString("base64"),
      ...(revision.stream ? { stream: { ...revision.stream } } : {}),
    })),
  };
}

export function deserializeFile(file: SerializedFile): StoredFile {
  return {
    ...file,
    parents: [...file.parents],
    permissions: file.permissions.map((permission) => ({ ...permission })),
    revisions: file.revisions.map((revision) => ({
      ...revision,
      content: Buffer.from(revision.content, "base64"),
      ...(revision.stream ? { stream: { ...revision.stream } } : {}),
    })),
  };
}

export function copyDrive(drive: StoredDrive): StoredDrive {
  return { ...drive, members: drive.members.map((m) => ({ ...m })) };
}
