/**
 * A mailbox's Gmail label names in the catalog (`resources/{resourceId}/backupState/mailLabels`,
 * `{labels: {id: name}, updatedAt, checkedAt}`), and renaming a label on the items that carry it.
 */
import { FieldPath, type DocumentReference } from "firebase-admin/firestore";
import { organizationRef, type Scope } from "../../lib/tenancy";
import { bounded } from "../../engine/sources/search-text";
import { renamedItemLabels, type CatalogItem } from "../../engine/runner/catalog";
import { sealedKeyId, searchTokens } from "../../engine/format/catalog-seal";
import { TOKEN_FIELDS } from "../../engine/format/catalog-index";
import type { LabelRename } from "../../engine/sources/source";
import { decodeDocument, decodeQueried } from "../../lib/stored";
import { MAIL_LABELS } from "./documents";
import { catalogItemKind, isSealed, sealedItem, type CatalogScope } from "./sealed-documents";

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
 * names a query; in format v2 the names' tokens in `index.labels`, under each of the keyring's keys) in
 * pages, each page one batch; the label names are saved last, so a repeat after a crash finds the renames
 * again (and the items already renamed no longer match). A v2 item is sealed again under the key it was
 * sealed with.
 */
export async function renameMailLabels(
  scope: CatalogScope,
  resourceId: string,
  renames: LabelRename[],
  labels: Record<string, string>,
  checkedAt?: string,
): Promise<void> {
  const items = organizationRef(scope).collection("resources").doc(resourceId).collection("items");
  const oldNames = [...new Set(renames.map((rename) => bounded(rename.from)))];
  const kind = catalogItemKind(scope);
  const searches: { field: string; values: (names: string[]) => string[] }[] = [
    { field: "search.labels", values: (names) => names },
    ...(scope.keyring?.all() ?? []).map((keys) => ({
      field: "index.labels",
      values: (names: string[]) => searchTokens(keys, TOKEN_FIELDS.label, names),
    })),
  ];
  for (let start = 0; start < oldNames.length; start += 30) {
    const names = oldNames.slice(start, start + 30);
    for (const search of searches) {
      let after: string | undefined;
      for (;;) {
        let query = items
          .where(search.field, "array-contains-any", search.values(names))
          .orderBy(FieldPath.documentId())
          .limit(300);
        if (after) query = query.startAfter(after);
        const page = await query.get();
        if (page.empty) break;
        const batch = items.firestore.batch();
        let writes = 0;
        for (const doc of page.docs) {
          const item = decodeQueried(kind, doc);
          const renamed = renamedItemLabels(item, renames);
          if (!renamed || item.search.kind !== "mail") continue;
          const data: unknown = doc.data();
          if (isSealed(data) && scope.keyring) {
            const keys = scope.keyring.keys(sealedKeyId(data.sealed));
            const place = { organizationId: scope.organizationId, resourceId, documentId: doc.id };
            const changed: CatalogItem = {
              ...item,
              current: { ...item.current, metadata: { ...item.current.metadata, labels: renamed.labels } },
              search: { ...item.search, labels: renamed.search },
            };
            batch.set(doc.ref, sealedItem(keys, place, changed));
          } else {
            batch.update(doc.ref, {
              "current.metadata.labels": renamed.labels,
              "search.labels": renamed.search,
            });
          }
          writes += 1;
        }
        if (writes > 0) await batch.commit();
        after = page.docs[page.docs.length - 1]?.id;
        if (page.size < 300) break;
      }
    }
  }
  await mailLabelsRef(scope, resourceId).set({
    labels,
    updatedAt: new Date().toISOString(),
    ...(checkedAt ? { checkedAt } : {}),
  });
}
