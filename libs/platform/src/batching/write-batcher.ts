interface Waiting<T> {
  item: T;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Turns many small writes into few: items added while a batch is being
 * written, or in the same tick as the first, go together in the next call of
 * `write` (one round trip for many, where each round trip is a system call
 * and, for Postgres, a commit). Each caller still waits until its own item
 * is written, and gets the batch's error if that write fails. One batch is
 * written at a time, in the order items came.
 */
export class WriteBatcher<T> {
  private pending: Waiting<T>[] = [];
  /** The write loop while it runs (checked and cleared synchronously, so no item is left behind). */
  private writing?: Promise<void>;

  constructor(private readonly write: (items: T[]) => Promise<void>) {}

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
    await Promise.resolve(); // callers in the same tick join the first batch
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
