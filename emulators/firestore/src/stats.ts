/**
 * Read accounting: per request, the index entries scanned and the documents read, and the reads Firestore
 * would bill for it ("Understand Cloud Firestore billing", https://firebase.google.com/docs/firestore/pricing
 * and https://cloud.google.com/firestore/pricing):
 * - a query: one read per document returned or skipped by its `offset`, and one read when it returns
 *   nothing ("Best practices for Cloud Firestore", https://firebase.google.com/docs/firestore/best-practices:
 *   skipped documents "are still retrieved internally" and "your application is billed for the read
 *   operations required to retrieve them");
 * - an aggregation (count/sum/avg): one read per batch of up to 1,000 index entries it matches (those an
 *   offset skips included), at least one;
 * - a get (GetDocument, BatchGetDocuments): one read per document asked for;
 * - ListDocuments: one per document returned, at least one; ListCollectionIds: one.
 * Reads inside transactions count the same.
 */
export type ReadRpc =
  | "RunQuery"
  | "RunAggregationQuery"
  | "BatchGetDocuments"
  | "GetDocument"
  | "ListDocuments"
  | "ListCollectionIds";

export interface RequestReads {
  rpc: ReadRpc;
  /** `projects/{p}/databases/{d}` */
  database: string;
  /** Index entries read (a query read by scanning counts each document it examined). */
  entriesScanned: number;
  /** Documents fetched to answer the request. */
  documentsRead: number;
  /** Documents (or aggregation results) returned. */
  returned: number;
  /** Reads Firestore bills for the request. */
  billedReads: number;
}

export interface ReadTotals {
  requests: number;
  entriesScanned: number;
  documentsRead: number;
  billedReads: number;
}

export interface ReadStatsSnapshot {
  totals: ReadTotals;
  /** The most recent requests, oldest first (at most `RECENT_REQUESTS`). */
  recent: RequestReads[];
}

export const RECENT_REQUESTS = 1000;

/** The reads Firestore bills for a request. */
export function billedReads(
  rpc: ReadRpc,
  figures: { returned: number; matched?: number; asked?: number; skipped?: number },
): number {
  switch (rpc) {
    case "RunQuery":
      return Math.max(1, figures.returned + (figures.skipped ?? 0));
    case "ListDocuments":
      return Math.max(1, figures.returned);
    case "RunAggregationQuery":
      return Math.max(1, Math.ceil((figures.matched ?? 0) / 1000));
    case "BatchGetDocuments":
    case "GetDocument":
      return figures.asked ?? figures.returned;
    case "ListCollectionIds":
      return 1;
  }
}

export class ReadStats {
  private totals: ReadTotals = ReadStats.zero();
  private recent: RequestReads[] = [];

  private static zero(): ReadTotals {
    return { requests: 0, entriesScanned: 0, documentsRead: 0, billedReads: 0 };
  }

  record(reads: RequestReads): void {
    this.totals.requests += 1;
    this.totals.entriesScanned += reads.entriesScanned;
    this.totals.documentsRead += reads.documentsRead;
    this.totals.billedReads += reads.billedReads;
    this.recent.push(reads);
    if (this.recent.length > RECENT_REQUESTS) this.recent.splice(0, this.recent.length - RECENT_REQUESTS);
  }

  snapshot(): ReadStatsSnapshot {
    return { totals: { ...this.totals }, recent: this.recent.map((r) => ({ ...r })) };
  }

  reset(): void {
    this.totals = ReadStats.zero();
    this.recent = [];
  }
}
