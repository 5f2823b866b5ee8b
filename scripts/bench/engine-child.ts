/**
 * One section of the engine bench in a process of its own, forked by `engine.ts` (with the tsconfig the
 * engine's imports need): `engine-child.ts <section>` runs the section and sends its figures to the parent.
 */
import { serveSection } from "./sections";

export type SectionName =
  "mailbox" | "parallel" | "scale" | "corpus" | "large-file" | "calendar" | "contacts";

/** Loaded on demand: the large-file section's process must not hold the Workspace emulator's code. */
serveSection({
  mailbox: async () => ({ measured: await (await import("./engine-mailbox")).measureMailbox() }),
  parallel: async () => ({ measured: await (await import("./engine-parallel")).measureParallel() }),
  scale: async () => ({ measured: await (await import("./engine-scale")).measureScale() }),
  corpus: async () => ({ measured: await (await import("./engine-corpus")).measureCorpus() }),
  "large-file": async () => ({ measured: await (await import("./engine-large-file")).measureLargeFile() }),
  calendar: async () => ({ measured: await (await import("./engine-calendar")).measureCalendar() }),
  contacts: async () => ({ measured: await (await import("./engine-contacts")).measureContacts() }),
} satisfies Record<SectionName, unknown>);
