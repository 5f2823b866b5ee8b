/** The restore section's settings that the bench's figure names show too. */

/** Imports in flight at once in the first run (the second runs one at a time). */
export const RESTORE_CONCURRENCY = 4;
