import { IsBoolean, IsDateString, IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { MerchantScope } from '../merchant-scope';
import { IdempotencyToken } from '../idempotency';
import type { GetCheckoutSessionQuery } from '../checkout-sessions/checkout-session.subjects';
import { CHECKOUT_SESSION_STATUSES, type CheckoutSessionStatus, type CheckoutSessionView } from '../checkout-sessions/checkout-session.views';
import { type ListPage, PageLimitParams } from '../list-page';
import type { AppendReply, AppendRequest, AppendStreamsReply, AppendStreamsRequest, ReadStreamReply, ReadStreamRequest } from './append';

/** `ledger.checkout-sessions.list.v1`: the caller's sessions, newest first (the dashboard's list). */
export class ListCheckoutSessionsQuery extends PageLimitParams {
  @IsString()
  @Length(1, 64)
  merchant_id!: string;

  @IsBoolean()
  livemode!: boolean;

  @IsOptional()
  @IsIn(CHECKOUT_SESSION_STATUSES)
  status?: CheckoutSessionStatus;

  @IsOptional()
  @IsString()
  @Length(1, 64)
  starting_after?: string;
}

/** Where a page of overdue sessions ended: the next page starts after this deadline and id. */
export class OverdueSessionsCursor {
  @IsDateString()
  expires_at!: string;

  @IsString()
  @Length(1, 64)
  session_id!: string;
}

export class OverdueCheckoutSessionsQuery {
  /** ISO 8601: sessions whose expires_at is at or before this instant. */
  @IsDateString()
  due_by!: string;

  @IsInt()
  @Min(1)
  @Max(1000)
  limit!: number;

  /** Only sessions after this one in (expires_at, id) order; absent: from the earliest. */
  @IsOptional()
  @ValidateNested()
  @Type(() => OverdueSessionsCursor)
  after?: OverdueSessionsCursor;
}

export interface OverdueCheckoutSession {
  session_id: string;
  merchant_id: string;
  livemode: boolean;
  expires_at: string;
}

/** A session of the caller's merchant and mode by its reference, matched case-insensitively (an exact match wins). */
export class ResolveCheckoutSessionReferenceQuery extends MerchantScope {
  @IsString()
  @Length(1, 255)
  reference!: string;
}

/** The session that issued a memo, whatever its merchant or mode (memos are unique across the service). */
export class FindCheckoutSessionByMemoQuery {
  @IsString()
  @Length(1, 64)
  memo!: string;
}

export interface CheckoutSessionRef {
  session_id: string;
  merchant_id: string;
  livemode: boolean;
}

/** The append recorded under an idempotency key, if any (for commands that check their preconditions before appending). */
export class ReplayIdempotencyQuery extends MerchantScope {
  @ValidateNested()
  @Type(() => IdempotencyToken)
  idempotency!: IdempotencyToken;
}

/** The subjects an aggregate service appends through: each service's NATS identity may publish on its own only. */
export type LedgerAppendSubject = 'ledger.append-streams.v1' | 'ledger.append-refund-streams.v1';

/** Served by the ledger. */
export interface LedgerSubjects {
  /** Optimistic append; a stale expected_version fails with CONCURRENCY_CONFLICT (reload, decide again, retry). Unique read-model rules fail with CONFLICT. */
  'ledger.append.v1': { request: AppendRequest; reply: AppendReply };
  /** Several streams in one atomic append (each with its own expected version); CONCURRENCY_CONFLICT details name the stale stream. */
  'ledger.append-streams.v1': { request: AppendStreamsRequest; reply: AppendStreamsReply };
  /**
   * The refunds service's append, as `ledger.append-streams.v1` but limited to what a refund writes: refund events on
   * refund streams, a payment's refund on transaction streams; FORBIDDEN for anything else (the ledger's
   * event-store/refund-appends.policy.ts). Its own subject, as the ledger cannot tell a caller but by the subject NATS
   * let it publish on: a refunds identity that could append anything could confirm a payment nobody made.
   */
  'ledger.append-refund-streams.v1': { request: AppendStreamsRequest; reply: AppendStreamsReply };
  /** NOT_FOUND when the key was never used; VALIDATION_FAILED IDEMPOTENCY_KEY_REUSED on another fingerprint. */
  'ledger.idempotency.replay.v1': { request: ReplayIdempotencyQuery; reply: AppendStreamsReply };
  'ledger.stream.read.v1': { request: ReadStreamRequest; reply: ReadStreamReply };
  /** The checkout-session read model; NOT_FOUND 'Checkout session not found' outside the caller's merchant and mode. */
  'ledger.checkout-sessions.get.v1': { request: GetCheckoutSessionQuery; reply: CheckoutSessionView };
  /** Newest first; NOT_FOUND 'Checkout session not found' when starting_after is not a session of the caller. */
  'ledger.checkout-sessions.list.v1': { request: ListCheckoutSessionsQuery; reply: ListPage<CheckoutSessionView> };
  /** NOT_FOUND 'Checkout session not found'; CONFLICT when the reference matches several sessions only case-insensitively. */
  'ledger.checkout-sessions.resolve.v1': { request: ResolveCheckoutSessionReferenceQuery; reply: CheckoutSessionRef };
  /** NOT_FOUND 'Checkout session not found' when no session issued the memo. */
  'ledger.checkout-sessions.by-memo.v1': { request: FindCheckoutSessionByMemoQuery; reply: CheckoutSessionRef };
  /** PENDING sessions past their deadline, oldest deadline first (for the expiry sweeper). */
  'ledger.checkout-sessions.overdue.v1': { request: OverdueCheckoutSessionsQuery; reply: { sessions: OverdueCheckoutSession[] } };
}
