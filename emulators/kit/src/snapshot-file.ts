/**
 * The state snapshot lifecycle every emulator with state follows: at start the snapshot is read from its
 * file when there is one; at `stop({ save: true })` it is written back (gzipped JSON, to a temporary file
 * renamed over the old one, so a crash never leaves half a file). An emulator with nothing to keep removes
 * the file instead, so a seed folder carries no empty state.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";

export class SnapshotFile<T> {
  constructor(readonly path: string) {}

  /** The saved snapshot, or undefined when none was saved. */
  load(): T | undefined {
    if (!existsSync(this.path)) return undefined;
    return JSON.parse(gunzipSync(readFileSync(this.path)).toString("utf8")) as T;
  }

  /** Writes the snapshot; `undefined` (nothing to keep) removes the file. */
  save(snapshot: T | undefined): void {
    if (snapshot === undefined) {
      rmSync(this.path, { force: true });
      return;
    }
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, gzipSync(JSON.stringify(snapshot)), { mode: 0o600 });
    renameSync(temporary, this.path);
  }
}
