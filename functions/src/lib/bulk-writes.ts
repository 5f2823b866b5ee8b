/**
 * Many writes through one Firestore BulkWriter, each write's outcome handled. A BulkWriter answers every
 * write with its own promise; one left unhandled that rejects (a create that finds the document written by
 * a concurrent request, an update of a document deleted meanwhile) is an unhandled rejection, which ends
 * the Node.js process and every request it serves. Here each write's failure is caught: a create may say
 * what a document already there means (`onExists`); any other failure makes `close` reject with it once
 * every write has settled.
 */
import type {
  BulkWriter,
  DocumentData,
  DocumentReference,
  Firestore,
  SetOptions,
  UpdateData,
} from "firebase-admin/firestore";

/** gRPC status of a create that finds its document (google.rpc.Code ALREADY_EXISTS). */
const ALREADY_EXISTS = 6;

function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
}

export interface BulkWrites {
  /** Creates the document; when it already exists, `onExists` is called instead of failing the batch. */
  create(ref: DocumentReference, data: DocumentData, onExists?: () => void): void;
  update(ref: DocumentReference, data: UpdateData<DocumentData>): void;
  set(ref: DocumentReference, data: DocumentData, options?: SetOptions): void;
  /** Waits for every write; rejects with the first failure not excused. */
  close(): Promise<void>;
}

export function bulkWrites(db: Firestore): BulkWrites {
  const writer: BulkWriter = db.bulkWriter();
  const failures: unknown[] = [];
  const settle = (write: Promise<unknown>, excused: (error: unknown) => boolean = () => false) => {
    write.catch((error: unknown) => {
      if (!excused(error)) failures.push(error);
    });
  };
  return {
    create(ref, data, onExists) {
      settle(writer.create(ref, data), (error) => {
        if (!onExists || codeOf(error) !== ALREADY_EXISTS) return false;
        onExists();
        return true;
      });
    },
    update(ref, data) {
      settle(writer.update(ref, data));
    },
    set(ref, data, options) {
      settle(options ? writer.set(ref, data, options) : writer.set(ref, data));
    },
    async close() {
      await writer.close();
      if (failures.length > 0) throw failures[0];
    },
  };
}
