import { IsDateString, IsInt, Max, Min } from 'class-validator';
import type { GetCheckoutSessionQuery } from '../checkout-sessions/checkout-session.subjects';
import type { CheckoutSessionView } from '../checkout-sessions/checkout-session.views';
import type { AppendReply, AppendRequest, ReadStreamReply, ReadStreamRequest } from './append';

export class OverdueCheckoutSessionsQuery {
  /** ISO 8601: sessions whose expires_at is at or before this instant. */
  @IsDateString()
  due_by!: string;

  @IsInt()
  @Min(1)
  @Max(1000)
  limit!: number;
}

export interface OverdueCheckoutSession {
  session_id: string;
  merchant_id: string;
  livemode: boolean;
  expires_at: string;
}

/** Served by the ledger. */
export interface LedgerSubjects {
  /** Optimistic append; a stale expected_version fails with CONCURRENCY_CONFLICT (reload, decide again, retry). Unique read-model rules fail with CONFLICT. */
  'ledger.append.v1': { request: AppendRequest; reply: AppendReply };
  'ledger.stream.read.v1': { request: ReadStreamRequest; reply: ReadStreamReply };
  /** The checkout-session read model; NOT_FOUND 'Checkout session not found' outside the caller's merchant and mode. */
  'ledger.checkout-sessions.get.v1': { request: GetCheckoutSessionQuery; reply: CheckoutSessionView };
  /** PENDING sessions past their deadline, oldest deadline first (for the expiry sweeper). */
  'ledger.checkout-sessions.overdue.v1': { request: OverdueCheckoutSessionsQuery; reply: { sessions: OverdueCheckoutSession[] } };
}
