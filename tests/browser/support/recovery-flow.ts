/**
 * What browser files that back up a demo resource and recover from it share (docs/requirements.md#screens-and-navigation recovery modal):
 * - `protectDemoResource` gives one demo resource the default policy and remembers what its backups and
 *   recoveries change in Firestore, so that `restore()` puts it back (its resource fields, runs, catalog
 *   items, alerts, audit entries, the recoveries and their locks, and the organisation's item counts):
 *   other browser files run after it.
 * - `backUpNow` runs "Backup now" from the resources list and waits for the backup to end.
 * - The recovery modal's and the progress card's steps.
 */
import type { Locator, Page } from "playwright-core";
import { FieldValue, type DocumentReference, type Firestore } from "firebase-admin/firestore";
import { BACKUP_MESSAGES } from "@alpvault/contracts/backups";
import type { OrganizationSummary } from "@alpvault/contracts/organizations";
import { screenshot } from "./browser";
import { BACKUP_RESOURCE_FIELDS, withOrganizationDb } from "./demo-data";
import { afterBackgroundWork } from "../../support/wait";
import { expectSnackbar } from "./snackbar";

/** The audit entries backups, searches and recoveries write. */
const isOurOperation = (operation: string) =>
  operation.startsWith("backup.") ||
  operation.startsWith("recovery.") ||
  operation === "backup-item.searched";

/** The id of the demo organisation's resource with this email. */
export function resourceIdOf(organization: OrganizationSummary, email: string): Promise<string> {
  return withOrganizationDb(organization, async (_, ref) => {
    const found = await ref.collection("resources").where("email", "==", email).get();
    const resource = found.docs[0];
    if (!resource) throw new Error(`The demo organisation has no resource for ${email}`);
    return resource.id;
  });
}

export interface DemoResource {
  resourceId: string;
  /** When the file started using it (ISO 8601): runs, recoveries and audit entries since then are its. */
  startedAt: string;
  /** Runs `body` with the organisation's region database and its document there. */
  db<T>(body: (db: Firestore, organizationRef: DocumentReference) => Promise<T>): Promise<T>;
  /** The resource's document as stored now. */
  stored(): Promise<Record<string, unknown>>;
  /** How many recoveries of the resource were asked for since the file started. */
  recoveriesSoFar(): Promise<number>;
  /** Puts back what backups and recoveries of the resource changed (waits for those still running). */
  restore(): Promise<void>;
}

/**
 * Gives the demo resource with `email` the default policy (without the assignment's backup, nothing
 * scheduled) and remembers its state first. `lockTargets` are the other resources the file recovers to
 * (their recovery locks are put back too); recoveries `standIn` asked for are the file's own stand-ins,
 * which `restore` does not wait for.
 */
export async function protectDemoResource(
  organization: OrganizationSummary,
  email: string,
  options: { lockTargets?: string[]; standIn?: string } = {},
): Promise<DemoResource> {
  const startedAt = new Date().toISOString();
  const db = <T>(body: (db: Firestore, organizationRef: DocumentReference) => Promise<T>) =>
    withOrganizationDb(organization, body);
  const resourceId = await resourceIdOf(organization, email);
  const resourceDoc = (ref: DocumentReference) => ref.collection("resources").doc(resourceId);
  const lockDoc = (ref: DocumentReference, target: string) => ref.collection("recoveryLocks").doc(target);
  const lockTargets = [resourceId, ...(options.lockTargets ?? [])];

  const saved = await db(async (_, ref) => {
    const resource = await resourceDoc(ref).get();
    const fields: Record<string, unknown> = {};
    for (const field of BACKUP_RESOURCE_FIELDS) fields[field] = resource.get(field) as unknown;
    const locks = new Map<string, Record<string, unknown> | undefined>();
    for (const target of lockTargets) locks.set(target, (await lockDoc(ref, target).get()).data());
    const saved = {
      fields,
      usage: (await ref.collection("meta").doc("usage").get()).data(),
      items: new Set((await resource.ref.collection("items").get()).docs.map((doc) => doc.id)),
      locks,
    };
    await resource.ref.update({
      policyId: "default",
      policyName: "Default policy",
      protected: true,
      nextBackupAt: null,
    });
    return saved;
  });

  const since = <T extends { get(field: string): unknown }>(docs: T[]) =>
    docs.filter((doc) => String(doc.get("requestedAt")) >= startedAt);

  /** The resource's runs and recoveries since the file started that are still pending or running. */
  const stillActive = () =>
    db(async (_, ref) => {
      const runs = await ref.collection("backupRuns").where("resourceId", "==", resourceId).get();
      const recoveries = await ref.collection("recoveries").where("resourceId", "==", resourceId).get();
      return since([...runs.docs, ...recoveries.docs]).filter(
        (doc) =>
          ["pending", "running"].includes(String(doc.get("state"))) &&
          (options.standIn === undefined || doc.get("requestedBy") !== options.standIn),
      ).length;
    });

  return {
    resourceId,
    startedAt,
    db,
    stored: () => db(async (_, ref) => (await resourceDoc(ref).get()).data() ?? {}),
    recoveriesSoFar: () =>
      db(async (_, ref) => {
        const recoveries = await ref.collection("recoveries").where("resourceId", "==", resourceId).get();
        return since(recoveries.docs).length;
      }),
    restore: async () => {
      // A backup or recovery the file started and that is still running would write after the restore.
      await afterBackgroundWork("The file's backups and recoveries", stillActive, (active) => active === 0);
      await db(async (firestore, ref) => {
        const resource = resourceDoc(ref);
        const items = await resource.collection("items").get();
        for (const item of items.docs) {
          if (!saved.items.has(item.id)) await firestore.recursiveDelete(item.ref);
        }
        const recoveries = await ref.collection("recoveries").where("resourceId", "==", resourceId).get();
        for (const recovery of since(recoveries.docs)) await firestore.recursiveDelete(recovery.ref);
        const runs = await ref.collection("backupRuns").where("resourceId", "==", resourceId).get();
        const batch = firestore.batch();
        for (const run of since(runs.docs)) {
          batch.delete(run.ref);
          batch.delete(ref.collection("alerts").doc(`backup-failed-${run.id}`));
        }
        const entries = await ref.collection("auditLogs").where("date", ">=", startedAt).get();
        for (const entry of entries.docs) {
          if (isOurOperation(String(entry.get("operation")))) batch.delete(entry.ref);
        }
        for (const [target, lock] of saved.locks) {
          if (lock) batch.set(lockDoc(ref, target), lock);
          else batch.delete(lockDoc(ref, target));
        }
        const fields: Record<string, unknown> = {};
        // A field the resource did not have goes again; null stays null.
        for (const field of BACKUP_RESOURCE_FIELDS) {
          fields[field] = saved.fields[field] === undefined ? FieldValue.delete() : saved.fields[field];
        }
        batch.update(resource, fields);
        const usage = ref.collection("meta").doc("usage");
        if (saved.usage) batch.set(usage, saved.usage);
        else batch.delete(usage);
        await batch.commit();
      });
    },
  };
}

/** The resources list's row of a resource. */
export const resourceRow = (page: Page, resourceId: string) =>
  page.locator(`[data-testid=resource-row][data-resource-id="${resourceId}"]`);

/** Opens the actions menu of the resources list's row named `name`. */
export async function openRowMenu(page: Page, name: string): Promise<Locator> {
  await page.getByRole("button", { name: `Actions for ${name}` }).click();
  const menu = page.getByRole("menu");
  await menu.waitFor();
  return menu;
}

/**
 * "Backup now" from the row's menu on the resources list: the snackbar says the backup started, and once
 * the run has ended (and the resource records it) the row shows no backup under way and its last backup.
 * Returns the resource's document then.
 */
export async function backUpNow(page: Page, resource: DemoResource, name: string) {
  const lastRunOf = async () =>
    (await resource.stored()).lastRun as { runId?: string; state?: string } | undefined;
  const before = (await lastRunOf())?.runId;
  const menu = await openRowMenu(page, name);
  await menu.getByRole("menuitem", { name: "Backup now" }).click();
  await expectSnackbar(page, BACKUP_MESSAGES.started, false);
  // The resource records the run's end in `lastRun`.
  await afterBackgroundWork(
    `The backup of ${name}`,
    lastRunOf,
    (lastRun) => lastRun?.runId !== before && ["succeeded", "failed"].includes(String(lastRun?.state)),
  );
  await page.waitForFunction(
    (selector) =>
      /^(?![\s\S]*(Waiting to start|\d+ items? · ))[\s\S]*Last: (?!never)/.test(
        document.querySelector<HTMLElement>(selector)?.innerText ?? "",
      ),
    `[data-testid=resource-row][data-resource-id="${resource.resourceId}"]`,
    { timeout: 90_000 },
  );
  return resource.stored();
}

/** The recovery modal. */
export const recoveryDialog = (page: Page) => page.getByRole("dialog", { name: "Recover data" });

/** Waits until the modal has finished fading in, so screenshots show it whole. */
export async function dialogSettled(page: Page): Promise<void> {
  await recoveryDialog(page).waitFor();
  await page.waitForFunction(() => {
    const element = document.querySelector(".MuiDialog-paper");
    return element !== null && getComputedStyle(element).opacity === "1";
  });
}

export async function closeDialog(page: Page): Promise<void> {
  await recoveryDialog(page).getByRole("button", { name: "Cancel" }).click();
  await recoveryDialog(page).waitFor({ state: "detached" });
}

/**
 * Screenshots of the open modal in both themes (the theme toggle sits behind the modal: closed, toggled,
 * reopened with `open`, which also fills it in again). The modal is open again, filled in, afterwards.
 */
export async function screenshotModalBothThemes(
  page: Page,
  open: () => Promise<void>,
  name: string,
): Promise<void> {
  await dialogSettled(page);
  await screenshot(page, name);
  await closeDialog(page);
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await open();
  await dialogSettled(page);
  await screenshot(page, `${name}-dark`);
  await closeDialog(page);
  await page.getByRole("button", { name: "Switch to light theme" }).click();
  await page.mouse.move(0, 0);
  await open();
  await dialogSettled(page);
}

/** The progress card of the recovery followed. */
export const recoveryProgress = (page: Page) => page.getByTestId("recovery-progress");

/** Waits until the followed recovery has ended (succeeded or failed); returns its state and its text. */
export async function recoveryEnded(page: Page): Promise<{ state: string; text: string }> {
  await recoveryProgress(page).waitFor();
  await page.waitForFunction(
    () =>
      ["succeeded", "failed"].includes(
        document.querySelector("[data-testid=recovery-progress]")?.getAttribute("data-state") ?? "",
      ),
    undefined,
    { timeout: 120_000 },
  );
  return {
    state: (await recoveryProgress(page).getAttribute("data-state")) ?? "",
    text: await recoveryProgress(page).getByTestId("recovery-progress-text").innerText(),
  };
}
