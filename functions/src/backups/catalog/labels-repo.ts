/**
 * A mailbox's Gmail label names in the catalog (`resources/{resourceId}/backupState/mailLabels`,
 * `{labels: {id: name}, updatedAt, checkedAt}`), and renaming a label on the items that carry it.
 */
import { FieldPath, type DocumentReference } from "firebase-admin/firestore";
import { organizationRef, type Scope } from "../../lib/tenancy";
import { bounded } from "../../engine/sources/search-text";
import { renamedItemLabels } from "../../engine/runner/catalog";
import type { LabelRename } from "../../engine/sources/source";
import { decodeDocument, decodeQueried } from "../../lib/stored";
import { CATALOG_ITEM, MAIL_LABELS } from "./documents";

function mailLabelsRef(scope: Scope, resourceId: string): DocumentReference {
  return organizationRef(scope)
    .collection("resources")
    .doc(resourceId)
    .collection("backupState")
    .doc("mailLabels");
}

/**
 * The current names of a mailbox's Gmail user labels (id → name) as its last backup saw them: a version's
 * labels are named with them on restore (a label renamed since the version was captured keeps its id).
 * Undefined when no backup recorded them yet.
 */
export async function mailLabelNames(
  scope: Scope,
  resourceId: string,
): Promise<Record<string, string> | undefined> {
  return decodeDocument(MAIL_LABELS, await mailLabelsRef(scope, resourceId).get())?.labels;
}

/** When the label names were last checked against the mailbox (undefined: never). */
export async function mailLabelsCheckedAt(scope: Scope, resourceId: string): Promise<string | undefined> {
  return decodeDocument(MAIL_LABELS, await mailLabelsRef(scope, resourceId).get())?.checkedAt;
}

/**
 * The items carrying a renamed label are found by its old name (`search.labels`, array-contains-any, 30
 * names a query) in pages, each page one batch; the label names are saved last, so a repeat after a
 * crash finds the renames again (and the items already renamed no longer match).
 */
export async function renameMailLabels(
  scope: Scope,
  resourceId: string,
  renames: LabelRename[],
  labels: Record<string, string>,
  checkedAt?: string,
): Promise<void> {
  const items = organizationRef(scope).collection("resources").doc(resourceId).collection("items");
  const oldNames = [...new Set(renames.map((rename) => bounded(rename.from)))];
  for (let start = 0; start < oldNames.length; start += 30) {
    const names = oldNames.slice(start, start + 30);
    let after: string | undefined;
    for (;;) {
      let query = items
        .where("search.labels", "array-contains-any", names)
        .orderBy(FieldPath.documentId())
        .limit(300);
      if (after) query = query.startAfter(after);
      const page = await query.get();
      if (page.empty) break;
      const batch = items.firestore.batch();
      let writes = 0;
      for (const doc of page.docs) {
        const renamed = renamedItemLabels(decodeQueried(CATALOG_ITEM, doc), renames);
        if (!renamed) continue;
        batch.update(doc.ref, {
          "current.metadata.labels": renamed.labels,
          "search.labels": renamed.search,
        });
        writes += 1;
      }
      if (writes > 0) await batch.commit();
      after = page.docs[page.docs.length - 1]?.id;
      if (page.size < 300) break;
    }
  }
  await mailLabelsRef(scope, resourceId).set({
    labels,
    updatedAt: new Date().toISOString(),
    ...(checkedAt ? { checkedAt } : {}),
  });
}
