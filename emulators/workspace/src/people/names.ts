/**
 * A contact's names as the People API keeps and answers them (the Name of the Person resource,
 * https://developers.google.com/people/api/rest/v1/people#name): `displayName` and `displayNameLastFirst`
 * are "Output only", so a client's values for them are dropped on every write (a name left with nothing
 * else is no name), and Google's are computed on every read from the structured fields (honorific prefix,
 * given, middle and family name, honorific suffix); `unstructuredName`, "the free form name value", is
 * kept as written and otherwise is the structured name. The emulator formats every name the way an
 * English-speaking viewer sees it: "Dr. Ada Maria Lovelace PhD", last first "Lovelace, Dr. Ada Maria, PhD".
 */

/** The fields of a Name Google computes. */
const OUTPUT_ONLY = ["displayName", "displayNameLastFirst"] as const;

const text = (value: unknown): string => (typeof value === "string" ? value.trim() : "");

/** A written name without its output-only fields; undefined when nothing else is left. */
function writtenName(name: Record<string, unknown>): Record<string, unknown> | undefined {
  const kept = { ...name };
  for (const field of OUTPUT_ONLY) delete kept[field];
  return Object.keys(kept).length > 0 ? kept : undefined;
}

/** The `names` a client writes, as a contact keeps them. */
export function writtenNames(names: Record<string, unknown>[]): Record<string, unknown>[] {
  return names.flatMap((name) => {
    const kept = writtenName(name);
    return kept ? [kept] : [];
  });
}

/**
 * A kept name with Google's computed fields. A name kept with its own `displayName` (state the emulator's
 * admin API sets up: a contact Gmail saved from a mail header has only that) shows it when it has no
 * other name to show.
 */
export function shownName(name: Record<string, unknown>): Record<string, unknown> {
  const prefix = text(name.honorificPrefix);
  const given = text(name.givenName);
  const middle = text(name.middleName);
  const family = text(name.familyName);
  const suffix = text(name.honorificSuffix);
  const structured = [prefix, given, middle, family, suffix].filter(Boolean).join(" ");
  const unstructured =
    typeof name.unstructuredName === "string" && name.unstructuredName.trim() !== ""
      ? name.unstructuredName
      : undefined;
  const displayName = structured || text(unstructured) || text(name.displayName);
  if (!displayName) return name;
  const firstPart = [prefix, given, middle].filter(Boolean).join(" ");
  const lastFirst = family
    ? [family, firstPart, suffix].filter(Boolean).join(", ")
    : text(name.displayNameLastFirst) || displayName;
  return {
    ...name,
    displayName,
    displayNameLastFirst: lastFirst,
    unstructuredName: unstructured ?? displayName,
  };
}
