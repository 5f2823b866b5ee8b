/**
 * Pessimistic concurrency, like Firestore's server-side transactions: a read-write transaction locks
 * every document it reads or writes until it commits or rolls back; other transactions and plain
 * writes wait for the lock (first come, first served). A wait that would close a cycle (deadlock)
 * aborts the requesting transaction with ABORTED, which the client SDKs retry; so does a lock wait
 * longer than `lockTimeoutMs`. Idle transactions expire and release their locks.
 */
import { randomBytes } from "node:crypto";

import { Code, FirestoreError } from "./values";

export class Transaction {
  readonly id = randomBytes(16);
  readonly key = this.id.toString("hex");
  readonly held = new Set<string>();
  aborted: string | undefined;
  expiry: NodeJS.Timeout | undefined;

  constructor(readonly readOnly: boolean) {}
}

interface Waiter {
  transaction: Transaction;
  resolve: () => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class TransactionManager {
  private readonly active = new Map<string, Transaction>();
  private readonly owners = new Map<string, Transaction>();
  private readonly queues = new Map<string, Waiter[]>();
  /** The lock each waiting transaction waits for. */
  private readonly waitingFor = new Map<Transaction, string>();

  constructor(
    private readonly lockTimeoutMs = 20_000,
    private readonly idleTimeoutMs = 60_000,
  ) {}

  begin(readOnly: boolean): Transaction {
    const transaction = new Transaction(readOnly);
    this.active.set(transaction.key, transaction);
    this.touch(transaction);
    return transaction;
  }

  /** A short-lived transaction for a write outside any client transaction. */
  implicit(): Transaction {
    return new Transaction(false);
  }

  get(id: Uint8Array): Transaction {
    const transaction = this.active.get(Buffer.from(id).toString("hex"));
    if (!transaction) throw new FirestoreError(Code.ABORTED, "The transaction has expired or is not active.");
    this.check(transaction);
    this.touch(transaction);
    return transaction;
  }

  check(transaction: Transaction): void {
    if (transaction.aborted) throw new FirestoreError(Code.ABORTED, transaction.aborted);
  }

  /** Locks the given documents (full names) for the transaction, in a stable order. */
  async lock(transaction: Transaction, names: Iterable<string>): Promise<void> {
    if (transaction.readOnly) return;
    for (const name of [...new Set(names)].sort()) {
      await this.acquire(transaction, name);
      this.check(transaction);
    }
  }

  private acquire(transaction: Transaction, name: string): Promise<void> {
    const owner = this.owners.get(name);
    if (!owner || owner === transaction) {
      this.owners.set(name, transaction);
      transaction.held.add(name);
      return Promise.resolve();
    }
    if (this.wouldDeadlock(transaction, owner)) {
      this.abort(transaction, "Transaction lock contention: deadlock detected, please retry.");
      return Promise.reject(new FirestoreError(Code.ABORTED, transaction.aborted!));
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.abort(transaction, "Transaction lock timeout, please retry.");
      }, this.lockTimeoutMs);
      timer.unref();
      const queue = this.queues.get(name) ?? [];
      queue.push({ transaction, resolve, reject, timer });
      this.queues.set(name, queue);
      this.waitingFor.set(transaction, name);
    });
  }

  private wouldDeadlock(requester: Transaction, owner: Transaction): boolean {
    const seen = new Set<Transaction>();
    let current: Transaction | undefined = owner;
    while (current && !seen.has(current)) {
      if (current === requester) return true;
      seen.add(current);
      const waited = this.waitingFor.get(current);
      current = waited === undefined ? undefined : this.owners.get(waited);
    }
    return false;
  }

  /** Ends a transaction (commit, rollback or abort) and hands its locks to the next waiters. */
  finish(transaction: Transaction): void {
    this.active.delete(transaction.key);
    clearTimeout(transaction.expiry);
    for (const name of transaction.held) {
      const queue = this.queues.get(name);
      const next = queue?.shift();
      if (queue?.length === 0) this.queues.delete(name);
      if (!next) {
        this.owners.delete(name);
        continue;
      }
      clearTimeout(next.timer);
      this.waitingFor.delete(next.transaction);
      this.owners.set(name, next.transaction);
      next.transaction.held.add(name);
      next.resolve();
    }
    transaction.held.clear();
  }

  abort(transaction: Transaction, reason: string): void {
    transaction.aborted ??= reason;
    const waited = this.waitingFor.get(transaction);
    if (waited !== undefined) {
      this.waitingFor.delete(transaction);
      const queue = this.queues.get(waited) ?? [];
      const index = queue.findIndex((w) => w.transaction === transaction);
      const [waiter] = index >= 0 ? queue.splice(index, 1) : [];
      if (queue.length === 0) this.queues.delete(waited);
      if (waiter) {
        clearTimeout(waiter.timer);
        waiter.reject(new FirestoreError(Code.ABORTED, reason));
      }
    }
    this.finish(transaction);
  }

  private touch(transaction: Transaction): void {
    clearTimeout(transaction.expiry);
    transaction.expiry = setTimeout(
      () => this.abort(transaction, "The transaction has expired."),
      this.idleTimeoutMs,
    );
    transaction.expiry.unref();
  }

  /** Aborts every transaction (used when the emulator stops). */
  abortAll(): void {
    for (const transaction of [...this.active.values()]) this.abort(transaction, "The emulator is stopping.");
  }
}
