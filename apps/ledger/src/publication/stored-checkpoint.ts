/** A place in the publication order: (transaction_id, position) of the last event published. */
export interface Checkpoint {
  transactionId: string;
  position: string;
}

/**
 * The checkpoint is written at most this often while events flow (and when
 * the publisher stops): once per page, it was a commit of its own for every
 * append under a steady load. What a crash leaves unwritten is published
 * again by the next leader and dropped by JetStream's duplicate window.
 */
export const CHECKPOINT_EVERY_MS = 250;

/**
 * Where publication has got to, and what of it is stored: the stored pair
 * trails the current one by at most `everyMs` while events flow.
 */
export class StoredCheckpoint {
  private stored: Checkpoint;
  private storedAt = Date.now();

  constructor(
    public current: Checkpoint,
    private readonly store: (at: Checkpoint) => Promise<void>,
    private readonly everyMs = CHECKPOINT_EVERY_MS,
  ) {
    this.stored = current;
  }

  /** Moves on, and stores the new pair if the last one stored is old enough. */
  async moveTo(next: Checkpoint): Promise<void> {
    this.current = next;
    if (this.dueInMs() === 0) await this.save();
  }

  /** Milliseconds until the current pair must be stored (Infinity when it is). */
  dueInMs(): number {
    if (this.current === this.stored) return Infinity;
    return Math.max(0, this.storedAt + this.everyMs - Date.now());
  }

  async save(): Promise<void> {
    if (this.current === this.stored) return;
    const at = this.current;
    await this.store(at);
    this.stored = at;
    this.storedAt = Date.now();
  }
}
