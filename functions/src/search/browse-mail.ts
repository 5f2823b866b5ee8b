/**
 * Browsing a mailbox by label (docs/api.md "Browse"): Gmail's system labels, then the user's as the last
 * backup named them; the mail of a label (all mail without one), newest first.
 */
import { BROWSE_MESSAGES, SYSTEM_LABELS, type BrowseLabel } from "@alpvault/contracts/browse";
import { mailLabelNames } from "../backups/service";
import { bounded } from "../engine/sources/search-text";
import { DomainError } from "../lib/errors";
import type { Scope } from "../lib/tenancy";
import { placeKeys, placePage, type PlaceBrowser } from "./browse-place";
import type { PlaceFilter } from "./repo";
import { mailResult } from "./results";
import { single } from "./service";

/** The longest label a browse takes. */
const MAX_LABEL = 200;

/** The mailbox's labels: Gmail's system ones, then the user's as its last backup named them. */
async function labelsOf(scope: Scope, resourceId: string): Promise<BrowseLabel[]> {
  const user = Object.values((await mailLabelNames(scope, resourceId)) ?? {})
    .sort((a, b) => a.localeCompare(b))
    .map((name) => ({ label: name, name, system: false }));
  return [...SYSTEM_LABELS.map((label) => ({ label: label.id, name: label.name, system: true })), ...user];
}

/** The labels, after checking the one asked for is among them. */
async function checkedLabels(scope: Scope, resourceId: string, label: string | undefined) {
  const labels = await labelsOf(scope, resourceId);
  if (label !== undefined && !labels.some((entry) => entry.label === label)) {
    throw DomainError.invalid(BROWSE_MESSAGES.invalidLabel);
  }
  return labels;
}

const labelFilter = (label: string): PlaceFilter => ({
  field: "search.labels",
  op: "array-contains",
  value: bounded(label),
});

export const mailBrowser: PlaceBrowser = {
  params: ["label"],
  misplaced: BROWSE_MESSAGES.labelForMail,
  open(query) {
    const label = single(query, "label");
    if (label !== undefined && (label.trim() === "" || label.length > MAX_LABEL)) {
      throw DomainError.invalid(BROWSE_MESSAGES.invalidLabel);
    }
    return {
      key: label ?? "",
      async page(context) {
        const labels = await checkedLabels(context.scope, context.resource.resourceId, label);
        const { found, items } = await placePage(
          context,
          label !== undefined ? labelFilter(label) : undefined,
        );
        return { found, results: items.map(mailResult), extras: { labels } };
      },
      async keys(context, asOf, limit) {
        if (label === undefined) return { keys: [], more: false, within: "" };
        await checkedLabels(context.scope, context.resourceId, label);
        return { ...(await placeKeys(context, labelFilter(label), asOf, limit)), within: labelName(label) };
      },
    };
  },
};

/** The name a label is shown by: Gmail's for its system labels, else the label itself (a user label's name). */
export function labelName(label: string): string {
  return SYSTEM_LABELS.find((system) => system.id === label)?.name ?? label;
}
