/** The catalog conformance suite against the in-memory catalog (the one the runner's tests use). */
import { MemoryCatalog } from "../../functions/src/engine/runner/memory-catalog";
import { describeCatalog } from "../support/catalog-conformance";

describeCatalog("MemoryCatalog", () => {
  const catalog = new MemoryCatalog();
  return {
    catalog,
    createRun: async (run) => catalog.createRun(run),
    versions: async (resourceId, itemKey) => catalog.versions(resourceId, itemKey),
    chunkEntry: async (chunkId) => catalog.chunkRef(chunkId),
  };
});
