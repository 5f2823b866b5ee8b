/** The Drive store's change log: one record per change to a file or a shared drive, numbered from 1. */
import { type ChangeRecord } from "./store-model";

export class DriveChangeLog {
  private changes: ChangeRecord[] = [];

  record(type: "file" | "drive", id: string, removed: boolean, time: string): void {
    const seq = this.changes.length + 1;
    this.changes.push({ seq, time, type, id, removed });
  }

  /** The token of the next change (changes.getStartPageToken). */
  nextChangeToken(): number {
    return this.changes.length + 1;
  }

  changesFrom(seq: number): ChangeRecord[] {
    return this.changes.slice(Math.max(0, seq - 1));
  }

  snapshot(): ChangeRecord[] {
    return this.changes.map((change) => ({ ...change }));
  }

  restore(changes: ChangeRecord[] | undefined): void {
    this.changes = (changes ?? []).map((change) => ({ ...change }));
  }
}
