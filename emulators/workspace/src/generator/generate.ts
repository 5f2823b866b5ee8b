/**
 * Deterministic organisations from a seed: the `demo` profile `npm start` runs, and `bench`. Plans the
 * organisation (`planOrganisation`) and writes it into the emulator's directory, Gmail and Drive stores.
 */
import type { WorkspaceEmulator } from "../emulator";
import { withAwkwardDrive } from "./awkward-drive";
import { planMailbox } from "./mail";
import { DEMO_DOMAIN, planOrganisation } from "./plan";
import type { OrganisationPlan, PlanOptions, ProfileName } from "./types";

export {
  DEMO_DOMAIN,
  BENCH_DOMAIN,
  DEFAULT_SEED,
  DRIVE_ONLY_USER,
  LARGE_MESSAGE_BYTES,
  REFERENCE_DATE,
  planOrganisation,
  planMailboxes,
} from "./plan";
export { planMailbox } from "./mail";
export { HUGE_FILE_BYTES, planAwkwardDrive, withAwkwardDrive } from "./awkward-drive";
export type { OrganisationPlan, PlanOptions, ProfileName } from "./types";

/** The demo organisation (profile `demo`, default seed), as the README describes it. */
export const DEMO_ORGANISATION_SUMMARY = {
  domain: DEMO_DOMAIN,
  appInstalled: false,
  superAdmin: { email: `admin@${DEMO_DOMAIN}`, name: "Ada Brunner" },
  nonAdmin: { email: `user@${DEMO_DOMAIN}`, name: "Ueli Schnyder" },
  suspended: { email: `gian.caduff@${DEMO_DOMAIN}`, name: "Gian Caduff" },
  users: 8,
  /** Messages in all mailboxes together; each holds 30–60, three of them announcements to everyone. */
  messages: 323,
  /** Raw RFC 822 bytes of all mailboxes (about 12.9 MB). */
  rawMailBytes: 12_913_780,
  sharedDrives: ["Finance", "Marketing"],
  /** My Drive and shared-drive items, folders included. */
  driveItems: 180,
} as const;

export interface ApplyResult {
  users: number;
  messages: number;
  rawMailBytes: number;
  driveItems: number;
  sharedDrives: number;
}

/** Writes a plan into the emulator: customer, users, labels and mail, My Drives, shared drives. */
export function applyPlan(emulator: WorkspaceEmulator, plan: OrganisationPlan): ApplyResult {
  emulator.directory.addCustomer({ domain: plan.domain, installed: plan.installed, scopes: plan.scopes });
  const ids = new Map<string, string>();
  for (const user of plan.users) {
    const created = emulator.directory.addUser({
      email: user.email,
      givenName: user.givenName,
      familyName: user.familyName,
      isAdmin: user.isAdmin,
      suspended: user.suspended,
      ...(user.gmailEnabled === false ? { gmailEnabled: false } : {}),
      creationTime: user.creationTime,
    });
    ids.set(user.email, created.id);
  }
  for (const person of plan.externalPeople ?? [])
    ids.set(person.email, emulator.drive.addExternalPerson(person).id);
  const userId = (email: string): string => {
    const id = ids.get(email);
    if (!id) throw new Error(`No generated user ${email}`);
    return id;
  };
  let messages = 0;
  let rawMailBytes = 0;
  for (const user of plan.users) {
    if (user.gmailEnabled === false) continue;
    const id = userId(user.email);
    const labelIds = new Map<string, string>();
    for (const name of user.labels) labelIds.set(name, emulator.gmail.createLabel(id, name).id);
    for (const message of planMailbox(plan, user.email)) {
      emulator.gmail.insertMessage(id, message.raw, {
        labelIds: [...message.labelIds, ...message.userLabels.map((name) => labelIds.get(name) as string)],
        internalDate: message.internalDate,
      });
      messages += 1;
      rawMailBytes += message.raw.length;
    }
  }
  const driveIds = new Map<string, string>();
  for (const drive of plan.sharedDrives) {
    const { id } = emulator.drive.createSharedDrive({
      name: drive.name,
      creatorUserId: userId(drive.creatorEmail),
      createdTime: drive.createdTime,
    });
    driveIds.set(drive.key, id);
    for (const member of drive.members) emulator.drive.addDriveMember(id, member);
  }
  const fileIds = new Map<string, string>();
  for (const item of plan.driveItems) {
    const { id } = emulator.drive.createFile({
      userId: userId(item.ownerEmail),
      driveId: item.sharedDriveKey ? driveIds.get(item.sharedDriveKey) : undefined,
      parentId: item.parentKey ? fileIds.get(item.parentKey) : undefined,
      name: item.name,
      mimeType: item.mimeType,
      content: item.content,
      ...(item.generated ? { generated: { kind: "generated" as const, ...item.generated } } : {}),
      ...(item.shortcutTargetKey ? { shortcutTargetId: fileIds.get(item.shortcutTargetKey) } : {}),
      ...(item.restrictions ? { restrictions: item.restrictions } : {}),
      createdTime: item.createdTime,
      modifiedTime: item.revisions.length > 0 ? item.createdTime : item.modifiedTime,
    });
    fileIds.set(item.key, id);
    for (const revision of item.revisions) {
      emulator.drive.addRevision(id, revision.content, {
        userId: userId(revision.userEmail),
        modifiedTime: revision.modifiedTime,
      });
    }
    for (const permission of item.permissions) emulator.drive.addPermission(id, permission);
  }
  return {
    users: plan.users.length,
    messages,
    rawMailBytes,
    driveItems: plan.driveItems.length,
    sharedDrives: plan.sharedDrives.length,
  };
}

export function generateOrganisation(
  emulator: WorkspaceEmulator,
  options: { profile: ProfileName; seed?: number } & Omit<PlanOptions, "profile" | "seed">,
): ApplyResult {
  const plan = planOrganisation(options);
  return applyPlan(
    emulator,
    options.awkwardDrive ? withAwkwardDrive(plan, { hugeFileBytes: options.hugeFileBytes }) : plan,
  );
}
