interface Waiting<T> {
  item: T;
  resolve(): void;
  reject(error: unknown): void;
}

export interface WriteBatcherOptions {
  /**
   * How long the first item of a batch waits for others before the batch is
   * written (0: only those of the same tick). For writes nobody waits on,
   * where a few milliseconds more cost nothing and items come one by one.
   */
  lingerMs?: number;
}

/**
 * Turns many small writes into few: items added while a batch is being
 * written, or in the same tick as the first (or within `lingerMs` of it),
 * go together in the next call of `write` (one round trip for many, where
 * each round trip is a system call and, for Postgres, a commit). Each
 * caller still waits until its own item is written, and gets the batch's
 * error if that write fails. One batch is written at a time, in the order
 * items came.
 */
export class WriteBatcher<T> {
  private pending: Waiting<T>[] = [];
  /** The write loop while it runs (checked and cleared synchronously, so no item is left behind). */
  private writing?: Promise<void>;
  private readonly lingerMs: number;

  constructor(
    private readonly write: (items: T[]) => Promise<void>,
    options: WriteBatcherOptions = {},
  ) {
    this.lingerMs = options.lingerMs ?? 0;
  }

  add(item: T): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.writing ??= this.writeAll();
    });
  }

  /** Resolves once everything added so far is written (or has failed). */
  async drain(): Promise<void> {
    await this.writing;
  }

  private async writeAll(): Promise<void> {
    // Callers in the same tick (or within the linger) join the first batch.
    await (this.lingerMs > 0 ? new Promise((resolve) => setTimeout(resolve, this.lingerMs)) : Promise.resolve());
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.write(batch.map((waiting) => waiting.item));
        for (const waiting of batch) waiting.resolve();
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.writing = undefined;
  }
}
