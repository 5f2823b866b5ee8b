/**
 * The Firestore v1 gRPC service (the RPCs the Admin and server SDKs use) over our store.
 * Protocol classes and the service definition come from `@firestore-emulator/proto`.
 */
import {
  BatchWriteResponse,
  BeginTransactionResponse,
  CommitResponse,
  ListCollectionIdsResponse,
  ListDocumentsResponse,
  RunAggregationQueryResponse,
  UnimplementedFirestoreService,
  type BatchGetDocumentsRequest,
  type BatchWriteRequest,
  type BeginTransactionRequest,
  type CommitRequest,
  type ListCollectionIdsRequest,
  type ListDocumentsRequest,
  type RollbackRequest,
  type RunAggregationQueryRequest,
  type RunQueryRequest,
} from "@firestore-emulator/proto/dist/google/firestore/v1/firestore";
import type { TransactionOptions } from "@firestore-emulator/proto/dist/google/firestore/v1/common";
import type {
  StructuredAggregationQuery,
  StructuredQuery,
} from "@firestore-emulator/proto/dist/google/firestore/v1/query";
import { Empty } from "@firestore-emulator/proto/dist/google/protobuf/empty";
import type { ServiceDefinition, UntypedServiceImplementation } from "@grpc/grpc-js";

import { packFields } from "./codec";
import { streaming, toStatus, unary } from "./grpc-handlers";
import { canonicalFieldPath, IndexCatalog, MissingIndexError } from "./indexes";
import { planQuery, type IndexPlan } from "./planner";
import { projectionOf, runAggregation, runQuery } from "./query";
import { batchGetResponse, passEncoded, runQueryResponse, type DocumentBytes } from "./responses";
import { serveQuery, type ServedQuery } from "./serve";
import { billedReads, ReadStats, type ReadRpc } from "./stats";
import { Store, type Database, type StoredDocument } from "./store";
import { TransactionManager, type Transaction } from "./transactions";
import { parseFieldPath, projectFields, type Fields, type Timestamp } from "./values";

/** The fields an aggregation sums or averages (canonical paths; none for `count()`). */
function aggregatedFields(aggregation: StructuredAggregationQuery): string[] {
  return aggregation.aggregations.flatMap((a) =>
    a.operator === "sum" || a.operator === "avg" ? [canonicalFieldPath(a[a.operator].field.field_path)] : [],
  );
}

/**
 * The Firestore service definition, where RunQuery and BatchGetDocuments stream responses encoded by
 * responses.ts (Buffers) as they are.
 */
export const firestoreServiceDefinition = (() => {
  const definition = { ...UnimplementedFirestoreService.definition } as unknown as Record<
    string,
    { responseSerialize: (message: never) => Buffer }
  >;
  for (const method of ["RunQuery", "BatchGetDocuments"]) {
    const entry = definition[method]!;
    definition[method] = { ...entry, responseSerialize: passEncoded(entry.responseSerialize) };
  }
  return definition as unknown as ServiceDefinition;
})();

/** A document as responses.ts encodes it: its packed fields, or those of its projection. */
function documentBytes(database: Database, document: StoredDocument, projection?: string[][]): DocumentBytes {
  return {
    name: database.fullName(document.path),
    packed: projection ? packFields(projectFields(document.fields, projection)) : database.packed(document),
    createTime: document.createTime,
    updateTime: document.updateTime,
  };
}

type Obj = Record<string, unknown>;

export interface ServiceOptions {
  /** The indexes queries are served from (default: the automatic single-field indexes only). */
  indexes?: IndexCatalog;
  /** Serve queries no index serves instead of refusing them (ad-hoc use only). */
  relaxedIndexes?: boolean;
}

export class FirestoreService {
  readonly transactions = new TransactionManager();
  /** Reads per request and in total (see stats.ts). */
  readonly stats = new ReadStats();
  readonly indexes: IndexCatalog;

  constructor(
    readonly store: Store,
    readonly options: ServiceOptions = {},
  ) {
    this.indexes = options.indexes ?? IndexCatalog.automatic();
  }

  /**
   * The indexes that serve a query; refuses a query no declared or automatic index serves, as Firestore
   * does (relaxed: undefined, and the query is read by scanning).
   */
  private plan(database: Database, query: StructuredQuery): IndexPlan[] | undefined {
    try {
      return planQuery(query, this.indexes, database);
    } catch (error) {
      if (this.options.relaxedIndexes && error instanceof MissingIndexError) return undefined;
      throw error;
    }
  }

  /** Reads a query's documents: from its index when the plan allows, else by scanning. */
  private execute(
    database: Database,
    path: string,
    query: StructuredQuery,
    plans: IndexPlan[] | undefined,
    options: { ordered?: boolean; aggregated?: readonly string[] } = {},
  ): ServedQuery {
    const served = serveQuery(database, path, query, plans, options.aggregated);
    if (served) return served;
    const counter = { examined: 0, skipped: 0 };
    const documents = runQuery(database, path, query, { ...options, counter });
    const { examined, skipped } = counter;
    return { documents, entriesScanned: examined, documentsFetched: examined, skipped };
  }

  private record(
    rpc: ReadRpc,
    database: Database,
    figures: {
      entriesScanned?: number;
      documentsRead: number;
      returned: number;
      matched?: number;
      asked?: number;
      skipped?: number;
    },
  ): void {
    this.stats.record({
      rpc,
      database: database.name,
      entriesScanned: figures.entriesScanned ?? 0,
      documentsRead: figures.documentsRead,
      returned: figures.returned,
      billedReads: billedReads(rpc, figures),
    });
  }

  private documentObject(
    database: Database,
    document: StoredDocument,
    fields: Fields = document.fields,
  ): Obj {
    return {
      name: database.fullName(document.path),
      fields,
      create_time: document.createTime,
      update_time: document.updateTime,
    };
  }

  /** The transaction a read runs in: an existing one, a new one, or none. */
  private readTransaction(request: {
    has_transaction: boolean;
    transaction: Uint8Array;
    has_new_transaction: boolean;
    new_transaction: TransactionOptions;
  }): { transaction?: Transaction; isNew: boolean } {
    if (request.has_new_transaction) {
      return { transaction: this.transactions.begin(request.new_transaction.has_read_only), isNew: true };
    }
    if (request.has_transaction)
      return { transaction: this.transactions.get(request.transaction), isNew: false };
    return { isNew: false };
  }

  /** Writes under locks, so plain writes wait for transactions holding the same documents. */
  private async commitLocked(writes: CommitRequest["writes"], transaction: Transaction) {
    try {
      await this.transactions.lock(
        transaction,
        writes.map((w) => Store.writeTarget(w)),
      );
      this.transactions.check(transaction);
      const time = this.store.commitTime();
      return { time, outcomes: this.store.commit(writes, time) };
    } finally {
      this.transactions.finish(transaction);
    }
  }

  implementation(): UntypedServiceImplementation {
    return { ...this.transactionHandlers(), ...this.readHandlers(), ...this.listingHandlers() };
  }

  /** Transactions and writes: BeginTransaction, Rollback, Commit, BatchWrite. */
  private transactionHandlers(): UntypedServiceImplementation {
    return {
      BeginTransaction: unary((request: BeginTransactionRequest) => {
        const transaction = this.transactions.begin(request.has_options && request.options.has_read_only);
        return BeginTransactionResponse.fromObject({ transaction: transaction.id });
      }),

      Rollback: unary((request: RollbackRequest) => {
        const transaction = this.transactions.get(request.transaction);
        this.transactions.finish(transaction);
        return Empty.fromObject({});
      }),

      Commit: unary(async (request: CommitRequest) => {
        const transaction =
          request.transaction.length > 0
            ? this.transactions.get(request.transaction)
            : this.transactions.implicit();
        const { time, outcomes } = await this.commitLocked(request.writes, transaction);
        return CommitResponse.fromObject({
          commit_time: time,
          write_results: outcomes.map((o) => ({
            update_time: o.updateTime,
            transform_results: o.transformResults,
          })),
        } as Parameters<typeof CommitResponse.fromObject>[0]);
      }),

      BatchWrite: unary(async (request: BatchWriteRequest) => {
        const results = await Promise.all(
          request.writes.map(async (write) => {
            try {
              const { time, outcomes } = await this.commitLocked([write], this.transactions.implicit());
              return { result: { update_time: outcomes[0]?.updateTime ?? time }, status: { code: 0 } };
            } catch (error) {
              const { code, details } = toStatus(error);
              return { result: {}, status: { code, message: details } };
            }
          }),
        );
        return BatchWriteResponse.fromObject({
          write_results: results.map((r) => r.result),
          status: results.map((r) => r.status),
        } as Parameters<typeof BatchWriteResponse.fromObject>[0]);
      }),
    };
  }

  /** Reads: BatchGetDocuments, RunQuery, RunAggregationQuery. */
  private readHandlers(): UntypedServiceImplementation {
    const readTime = (): Timestamp => this.store.commitTime();
    return {
      BatchGetDocuments: streaming(async (request: BatchGetDocumentsRequest, write: (r: Buffer) => void) => {
        const { transaction, isNew } = this.readTransaction(request);
        if (transaction) await this.transactions.lock(transaction, request.documents);
        const mask = request.has_mask ? request.mask.field_paths.map(parseFieldPath) : undefined;
        const time = readTime();
        let found = 0;
        request.documents.forEach((name, i) => {
          const { database, path } = this.store.resolveDocument(name);
          const document = database.get(path);
          if (document) found += 1;
          if (i === request.documents.length - 1) {
            const figures = { documentsRead: found, returned: found, asked: request.documents.length };
            this.record("BatchGetDocuments", database, figures);
          }
          const bytes = document && documentBytes(database, document, mask);
          write(
            batchGetResponse({
              ...(bytes ? { found: bytes } : { missing: name }),
              readTime: time,
              transaction: isNew && i === 0 ? transaction!.id : undefined,
            }),
          );
        });
      }),

      RunQuery: streaming(async (request: RunQueryRequest, write: (r: Buffer) => void) => {
        const { database, path } = this.store.resolve(request.parent);
        const plans = this.plan(database, request.structured_query);
        const { transaction, isNew } = this.readTransaction(request);
        const served = await this.lockedQuery(transaction, database, () =>
          this.execute(database, path, request.structured_query, plans),
        );
        const { documents } = served;
        this.record("RunQuery", database, {
          ...served,
          documentsRead: served.documentsFetched,
          returned: documents.length,
        });
        const projection = projectionOf(request.structured_query);
        const time = readTime();
        const transactionId = isNew ? transaction!.id : undefined;
        documents.forEach((document, i) => {
          write(
            runQueryResponse({
              document: documentBytes(database, document, projection),
              readTime: time,
              transaction: i === 0 ? transactionId : undefined,
            }),
          );
        });
        write(
          runQueryResponse({
            readTime: time,
            done: true,
            transaction: documents.length === 0 ? transactionId : undefined,
          }),
        );
      }),

      RunAggregationQuery: streaming(
        async (request: RunAggregationQueryRequest, write: (r: RunAggregationQueryResponse) => void) => {
          const { database, path } = this.store.resolve(request.parent);
          const aggregation = request.structured_aggregation_query;
          const plans = this.plan(database, aggregation.structured_query);
          const { transaction, isNew } = this.readTransaction(request);
          const served = await this.lockedQuery(transaction, database, () =>
            this.execute(database, path, aggregation.structured_query, plans, {
              ordered: false,
              aggregated: aggregatedFields(aggregation),
            }),
          );
          const { documents } = served;
          const figures = { ...served, documentsRead: served.documentsFetched, returned: 1 };
          const matched = documents.length + served.skipped;
          this.record("RunAggregationQuery", database, { ...figures, matched });
          write(
            RunAggregationQueryResponse.fromObject({
              result: { aggregate_fields: runAggregation(database, path, aggregation, documents) },
              read_time: readTime(),
              ...(isNew ? { transaction: transaction!.id } : {}),
            } as Parameters<typeof RunAggregationQueryResponse.fromObject>[0]),
          );
        },
      ),
    };
  }

  /** Listings: ListCollectionIds, ListDocuments. */
  private listingHandlers(): UntypedServiceImplementation {
    return {
      ListCollectionIds: unary((request: ListCollectionIdsRequest) => {
        const { database, path } = this.store.resolve(request.parent);
        this.record("ListCollectionIds", database, { documentsRead: 0, returned: 0 });
        return ListCollectionIdsResponse.fromObject({ collection_ids: database.collectionIds(path) });
      }),

      ListDocuments: unary((request: ListDocumentsRequest) => {
        const { database, path } = this.store.resolve(request.parent);
        const collection = path ? `${path}/${request.collection_id}` : request.collection_id;
        const names = new Set<string>();
        for (const document of database.inCollection(collection)) names.add(document.path);
        if (request.show_missing) {
          // Documents that do not exist but have subcollections with documents.
          const depth = collection.split("/").length + 1;
          for (const documentPath of database.paths()) {
            if (!documentPath.startsWith(`${collection}/`)) continue;
            names.add(documentPath.split("/").slice(0, depth).join("/"));
          }
        }
        const mask = request.has_mask ? request.mask.field_paths.map(parseFieldPath) : undefined;
        const documents = [...names].sort().map((documentPath) => {
          const document = database.get(documentPath);
          if (!document) return { name: database.fullName(documentPath) };
          return this.documentObject(
            database,
            document,
            mask ? projectFields(document.fields, mask) : undefined,
          );
        });
        const read = documents.filter((d) => "fields" in d).length;
        this.record("ListDocuments", database, { documentsRead: read, returned: documents.length });
        return ListDocumentsResponse.fromObject({ documents } as Parameters<
          typeof ListDocumentsResponse.fromObject
        >[0]);
      }),
    };
  }

  /**
   * Runs a query inside a transaction: locks the matching documents, then runs it again in case the
   * results changed while waiting, until the locked set covers the results.
   */
  private async lockedQuery(
    transaction: Transaction | undefined,
    database: Database,
    run: () => ServedQuery,
  ): Promise<ServedQuery> {
    let served = run();
    if (!transaction || transaction.readOnly) return served;
    for (;;) {
      await this.transactions.lock(
        transaction,
        served.documents.map((d) => database.fullName(d.path)),
      );
      served = run();
      if (served.documents.every((d) => transaction.held.has(database.fullName(d.path)))) return served;
    }
  }
}
