import { Injectable } from '@nestjs/common';

/**
 * Tells the JetStream publisher leading in this process that the group
 * commit has committed events, without Postgres' NOTIFY: that goes through
 * the server and wakes the publisher's own connection, a detour of about a
 * millisecond on a payment's way to its webhook (docs/PERFORMANCE.md). While
 * a publisher listens here, the group commit sends no NOTIFY, since only one
 * replica publishes at a time and this one is it. When leadership moves, the
 * new leader starts from the stored checkpoint and polls
 * (LEDGER_PUBLISH_POLL_MS), so an event committed in the handover waits at
 * most one poll; none is lost.
 */
@Injectable()
export class LocalCommits {
  private listener?: () => void;

  /** Listens for this process's commits until the returned function is called. */
  listen(listener: () => void): () => void {
    this.listener = listener;
    return () => {
      if (this.listener === listener) this.listener = undefined;
    };
  }

  /** Whether a publisher in this process hears the commits (so no NOTIFY is needed). */
  get heard(): boolean {
    return this.listener !== undefined;
  }

  committed(): void {
    this.listener?.();
  }
}
