import { ROOT_CONTEXT } from '@opentelemetry/api';
import { processContext } from '../telemetry/process-context';

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export interface BatcherOptions {
  /**
   * false (the default): one batch at a time; items that come meanwhile wait
   * and go together in the next (group commit). true: each turn's items go
   * at once, whatever else is running; for stages where a batch may wait
   * long on one slow item and must not hold back the next.
   */
  overlapping?: boolean;
}

/**
 * Turns many small round trips into few: items added while a batch is being
 * run, or in the same turn of the event loop as the first, go together in
 * the next call of `run` (one statement or one request for
 * many, where each round trip is a system call at both ends and, for a
 * Postgres write, a commit). Each caller still waits for its own item and
 * gets its own result: `run` answers one result per item, in the order
 * given (or nothing, for writes). A failing `run` fails every caller of
 * that batch. One batch runs at a time, in the order items came; under no
 * load a lone item goes at once, so batching adds no delay. `run` sees no
 * caller's request context (its id, deadline or span): it serves them all.
 */
export class Batcher<T, R = void> {
  private pending: Waiting<T, R>[] = [];
  /** The loop while it runs (checked and cleared synchronously, so no item is left behind). */
  private running?: Promise<void>;
  private readonly overlapping: boolean;
  /** Overlapping batches still running, for drain. */
  private readonly overlapped = new Set<Promise<void>>();

  constructor(
    private readonly run: (items: T[]) => Promise<R[] | void>,
    options: BatcherOptions = {},
  ) {
    this.overlapping = options.overlapping ?? false;
  }

  add(item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      // Run outside the adding caller's context: a batch serves every caller in it, and the loop may go on for long
      // after the first has left, so neither its request id, its deadline nor its trace may follow the batches.
      this.running ??= processContext.with(ROOT_CONTEXT, () => (this.overlapping ? this.startOverlapping() : this.runAll()));
    });
  }

  /** Resolves once everything added so far has run (or has failed). */
  async drain(): Promise<void> {
    await this.running;
    await Promise.all(this.overlapped);
  }

  private async runAll(): Promise<void> {
    await this.gathered();
    while (this.pending.length > 0) await this.runBatch(this.take());
    this.running = undefined;
  }

  private async startOverlapping(): Promise<void> {
    await this.gathered();
    const batch = this.runBatch(this.take());
    this.running = undefined; // the next item starts the next batch, without waiting for this one
    this.overlapped.add(batch);
    await batch;
    this.overlapped.delete(batch);
  }

  /**
   * Callers in the same turn join the first batch: a burst of messages read
   * from one socket, say, whose handlers each add an item a few promise jobs
   * apart.
   */
  private gathered(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }

  private take(): Waiting<T, R>[] {
    const batch = this.pending;
    this.pending = [];
    return batch;
  }

  private async runBatch(batch: Waiting<T, R>[]): Promise<void> {
    try {
      const results = await this.run(batch.map((waiting) => waiting.item));
      if (results && results.length !== batch.length) throw new Error(`a batch of ${batch.length} answered ${results.length} results`);
      batch.forEach((waiting, i) => waiting.resolve(results ? results[i] : (undefined as R)));
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    }
  }
}
