/**
 * The sandbox mailbox a drill restores into (see worker.ts): its Gmail and Drive as the sandbox user, the
 * restorers that put items there, and the clean-up that moves what the drill restored to the trash.
 */
import type { drive_v3 } from "@googleapis/drive";
import type { gmail_v1 } from "@googleapis/gmail";
import type { RegionId } from "@alpvault/contracts/regions";
import type { KeyWrappers } from "../backups/data-keys";
import { dataKeyResolver } from "../backups/data-keys";
import type { BlobStore } from "../engine/blobstore/blob-store";
import { DriveRestorer, type UploadAccess } from "../engine/drive/restorer";
import type { DerivedKeys } from "../engine/format/keys";
import type { GoogleCaller } from "../engine/google/caller";
import { GmailRestorer } from "../engine/gmail/restorer";
import type { CatalogScope } from "../backups/catalog/sealed-documents";
import type { Scope } from "../lib/tenancy";
import type { StoredDrillRun } from "./repo";

/** What a sandbox is opened with (the drill worker's dependencies). */
export interface SandboxAccess {
  caller: GoogleCaller;
  gmail(user: string): gmail_v1.Gmail;
  drive(user: string): drive_v3.Drive;
  upload(user: string): UploadAccess;
  blobStore(regionId: RegionId): BlobStore;
  wrappers: KeyWrappers;
}

type Send<T> = () => Promise<T>;

/** One delivery's sandbox: where it restores, and what it reads the backups with. */
export interface DrillSandbox {
  /** With the catalog's keys once the drill begins. */
  scope: CatalogScope;
  run: StoredDrillRun;
  gmail: gmail_v1.Gmail;
  drive: drive_v3.Drive;
  restorer: GmailRestorer;
  driveRestorer: DriveRestorer;
  /** A Gmail call as the sandbox user, through the Google caller. */
  gmailCall<T>(method: string, idempotent: boolean, send: Send<T>): Promise<T>;
  /** A Drive call as the sandbox user, through the Google caller. */
  driveCall<T>(method: string, idempotent: boolean, send: Send<T>): Promise<T>;
  keys: (dataKeyId: string) => Promise<DerivedKeys>;
  blobStore: BlobStore;
  /** The run's label in the sandbox mailbox, made on first use. */
  labelId?: Promise<string>;
  /** The run's folder in the sandbox's My Drive, made on first use. */
  folderId?: Promise<string>;
}

export function openSandbox(
  scope: Scope,
  run: StoredDrillRun,
  email: string,
  access: SandboxAccess,
): DrillSandbox {
  const gmail = access.gmail(email);
  const drive = access.drive(email);
  return {
    scope,
    run,
    gmail,
    drive,
    restorer: new GmailRestorer(gmail, email, access.caller),
    driveRestorer: new DriveRestorer(drive, { kind: "user", email }, access.caller, access.upload(email)),
    gmailCall: (method, idempotent, send) =>
      access.caller.call({ api: "gmail", user: email, method, idempotent }, send),
    driveCall: (method, idempotent, send) =>
      access.caller.call({ api: "drive", user: email, method, idempotent }, send),
    keys: dataKeyResolver(scope, access.wrappers),
    blobStore: access.blobStore(scope.regionId),
  };
}

/** Moves what the drill restored to the trash: its messages (the label is deleted after), its folder. */
export async function cleanUpSandbox(sandbox: DrillSandbox): Promise<void> {
  const { gmail, drive, gmailCall, run } = sandbox;
  const { data: labels } = await gmailCall("gmail.users.labels.list", true, () =>
    gmail.users.labels.list({ userId: "me" }),
  );
  const label = (labels.labels ?? []).find((entry) => entry.name === run.restoreName);
  if (label?.id) {
    const labelId = label.id;
    let pageToken: string | undefined;
    do {
      const { data: page } = await gmailCall("gmail.users.messages.list", true, () =>
        gmail.users.messages.list({ userId: "me", labelIds: [labelId], maxResults: 100, pageToken }),
      );
      for (const message of page.messages ?? []) {
        if (!message.id) continue;
        const id = message.id;
        await gmailCall("gmail.users.messages.trash", true, () =>
          gmail.users.messages.trash({ userId: "me", id }),
        );
      }
      pageToken = page.nextPageToken ?? undefined;
    } while (pageToken);
    await gmailCall("gmail.users.labels.delete", true, () =>
      gmail.users.labels.delete({ userId: "me", id: labelId }),
    );
  }
  const folder = await sandbox.driveRestorer.find(run.restoreName, "root", true);
  if (folder) {
    await sandbox.driveCall("drive.files.update", true, () =>
      drive.files.update({ fileId: folder, requestBody: { trashed: true }, fields: "id" }),
    );
  }
}
