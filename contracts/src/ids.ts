/**
 * Ids the API takes in paths and bodies (organisations, subscriptions, resources, policies, secrets,
 * checkouts, recoveries): letters, digits, hyphen and underscore, 1 to 128 characters. Every id we mint
 * (random ids, Firestore auto ids, `user-<Directory id>`, `drive-<shared drive id>`, provider checkout
 * ids) has that form, and none of it can name another Firestore document: no `/`, no `.` or `..`, no
 * `__…__` reserved name, nothing that is not printable ASCII.
 */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

export function isId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value) && !/^__.*__$/.test(value);
}
