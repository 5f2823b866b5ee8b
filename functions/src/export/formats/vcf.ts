/**
 * Contacts' export format: one vCard 4.0 file (RFC 6350, engine/contacts/vcard.ts), a VCARD per contact
 * and other contact in item-key order. Groups write no card of their own: each contact names its groups
 * (CATEGORIES), by the names the catalog's group entries held at the export's date (read once a
 * delivery).
 */
import { heldItem, itemsAfter } from "../../backups/service";
import { backedUpGroupNames, isGroupEntry, type BackedUpPerson } from "../../engine/contacts/people";
import { personVCard } from "../../engine/contacts/vcard";
import { isIntegrityError, versionContent } from "../../engine/restore/content";
import { exportKind, type ExportFile, type FormatWriter } from "./format";

const groupNames = new WeakMap<ExportFile, Promise<ReadonlyMap<string, string>>>();

/**
 * The names of the resource's backed-up groups at the export's date, by resource name (a group whose
 * backup is damaged, or that the backups did not hold then, is unnamed).
 */
function namesOf(file: ExportFile): Promise<ReadonlyMap<string, string>> {
  let names = groupNames.get(file);
  if (!names) {
    const { scope, job } = file;
    names = backedUpGroupNames(
      (after, size) => itemsAfter(scope, job.resourceId, exportKind(job), after, size),
      async (item) => {
        // The group as the backups held it at the export's date (a group made since is unnamed then).
        const held = await heldItem(
          scope,
          { resourceId: job.resourceId, kind: exportKind(job), asOf: job.asOf },
          item,
        );
        if (!held) return Buffer.from("{}");
        try {
          const keys = await file.keys(held.current.dataKeyId);
          return await versionContent(
            file.blobStore,
            { organizationId: scope.organizationId, keys },
            held.current,
          );
        } catch (error) {
          if (!isIntegrityError(error)) throw error;
          return Buffer.from("{}");
        }
      },
    ).then((found) => new Map(Object.entries(found)));
    groupNames.set(file, names);
  }
  return names;
}

export const VCF: FormatWriter = {
  contentType: "text/vcard; charset=utf-8",
  extension: "vcf",
  zip: false,
  async write(file, item, read) {
    const content = await read.content();
    if (isGroupEntry(item.current.metadata)) return;
    const person = JSON.parse(content.toString("utf8")) as BackedUpPerson;
    await file.output.write(Buffer.from(personVCard(person, await namesOf(file)), "utf8"));
  },
};
