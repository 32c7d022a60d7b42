import { Injectable } from '@nestjs/common';
import { type CheckoutSessionRef, DomainError, ErrorCode } from '@pp/contracts';
import { LruMap } from '@pp/kernel';
import { BusClient } from '@pp/platform';

/** Most memos remembered, the least recently used forgotten first: hours of sessions at a busy pace, a few MB. */
export const REMEMBERED_MEMOS = 10_000;

/**
 * Which checkout session a memo names. A memo is given to one session when
 * it is created and never changes or moves, so what this process has
 * learned (creating the session, or asking the ledger) stays true: a
 * transfer for a session created by this replica is matched without a
 * round trip to the ledger. A memo no session has is never remembered (its
 * session may be created next), so it is asked about each time.
 */
@Injectable()
export class MemoDirectory {
  private readonly known = new LruMap<string, CheckoutSessionRef>(REMEMBERED_MEMOS);

  constructor(private readonly bus: BusClient) {}

  remember(memo: string, session: CheckoutSessionRef): void {
    this.known.set(memo, session);
  }

  /** The session whose memo this is (in its canonical form, PP-XXXXXX); undefined when none has it. */
  async sessionOf(memo: string): Promise<CheckoutSessionRef | undefined> {
    const known = this.known.get(memo);
    if (known) return known;
    try {
      const session = await this.bus.request('ledger.checkout-sessions.by-memo.v1', { memo });
      this.remember(memo, session);
      return session;
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.NotFound) return undefined;
      throw error;
    }
  }
}
