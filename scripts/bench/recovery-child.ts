/**
 * One section of the recovery bench in a process of its own, forked by `recovery.ts` (with the tsconfig
 * the product's imports need): `recovery-child.ts <section>` runs the section and sends its figures.
 */
import { serveSection } from "./sections";

export type RecoverySectionName = "restore" | "export" | "search";

/** Loaded on demand: the search section's process does not hold the Workspace emulator's code. */
serveSection({
  restore: async () => ({ measured: await (await import("./recovery-restore")).measureRestore() }),
  export: async () => (await import("./recovery-export")).measureExport(),
  search: async () => (await import("./recovery-search")).measureSearch(),
} satisfies Record<RecoverySectionName, unknown>);
