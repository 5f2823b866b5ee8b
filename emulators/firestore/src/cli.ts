/**
 * Runs a local Firestore until SIGINT/SIGTERM, then saves to the data directory (if given) and exits.
 *
 *   tsx emulators/firestore/src/cli.ts --port 8080 [--host 127.0.0.1] [--data emulator-data/firestore]
 *                                      [--project demo-alpvault] [--indexes firestore.indexes.json]…
 *                                      [--relaxed-indexes] [--stats-port 8093]
 *
 * Queries are served from the indexes in the --indexes files (default: the project's firestore.indexes.json); a
 * query that needs an undeclared index is refused, as in production; --relaxed-indexes (or
 * FIRESTORE_EMULATOR_RELAXED_INDEXES=1) serves it anyway, for ad-hoc use. --stats-port serves the reads
 * counted per request at GET http://<host>:<stats-port>/emulator/v1/stats.
 */
import { parseArgs } from "node:util";

import { startFirestore } from "./launcher";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "8080" },
      host: { type: "string", default: "127.0.0.1" },
      data: { type: "string" },
      project: { type: "string" },
      indexes: { type: "string", multiple: true },
      "relaxed-indexes": { type: "boolean" },
      "stats-port": { type: "string" },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`Invalid --port: ${values.port}`);

  const firestore = await startFirestore({
    port,
    host: values.host,
    dataDir: values.data,
    projectId: values.project,
    indexesFiles: values.indexes,
    relaxedIndexes: values["relaxed-indexes"],
    statsPort: values["stats-port"] === undefined ? undefined : Number(values["stats-port"]),
  });
  console.log(
    `Firestore emulator (${firestore.kind}) listening on ${firestore.host}:${firestore.port}` +
      (values.data ? `, data in ${values.data}` : ""),
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping the Firestore emulator${values.data ? " and saving its data" : ""}…`);
    firestore.stop({ save: Boolean(values.data) }).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
