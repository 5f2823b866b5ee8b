/**
 * One section of the scale bench in a process of its own, forked by `scale.ts`: `scale-child.ts <section>`
 * runs the section and sends its figures.
 */
import { serveSection } from "./sections";

export type ScaleSectionName = "search" | "gc";

serveSection({
  search: async () => (await import("./scale-search")).measureSearchAtScale(),
  gc: async () => (await import("./scale-gc")).measureGcAtScale(),
} satisfies Record<ScaleSectionName, unknown>);
