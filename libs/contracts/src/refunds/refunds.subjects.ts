import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsNotEmpty, IsOptional, IsString, Length, Matches, MaxLength, ValidateNested } from 'class-validator';
import { StreamAppend } from '../ledger/append';
import { type ListPage, PageLimitParams } from '../list-page';
import { MerchantScope } from '../merchant-scope';
import { IdempotencyToken } from '../idempotency';
import type { PaymentView } from '../payments/payment.views';
import { PAYMENT_ID_PATTERN } from '../payments/payments.subjects';
import { PlainText, Trimmed } from '../plain-text';
import { REFUND_STATUSES, type RefundStatus, type RefundView } from './refund.views';

export const REFUND_ID_PATTERN = /^rf_[a-z0-9]{8,64}$/;

/** Longest free text a refund keeps (reason, evidence, rejection and failure reasons). */
export const REFUND_TEXT_MAX = 1000;

/** What any refund free text may be, required or not: at most REFUND_TEXT_MAX characters of plain text, lines and tabs included. */
export function RefundText(field: string): PropertyDecorator {
  return (target, key) => {
    MaxLength(REFUND_TEXT_MAX, { message: `${field} must be at most ${REFUND_TEXT_MAX} characters` })(target, key);
    PlainText(field, { multiline: true })(target, key);
  };
}

/** A required free-text input: trimmed, then non-empty ('<field> is required'), then RefundText. */
function RequiredText(field: string): PropertyDecorator {
  return (target, key) => {
    Trimmed()(target, key);
    IsString({ message: `${field} must be a string` })(target, key);
    IsNotEmpty({ message: `${field} is required` })(target, key);
    RefundText(field)(target, key);
  };
}

/** Longest outbound reference: a bank's is short (Interac's, C and 7 to 11 letters and digits), and this one fits any index entry. */
export const OUTBOUND_REFERENCE_MAX = 64;

/**
 * The bank's reference of the outbound transfer, as an operator copies it:
 * ASCII letters and digits, with space and `. _ / -` between, starting with a
 * letter or digit. One transfer proves one refund, compared upper-cased and
 * without whitespace (refund.decider.ts, and the read model's unique index),
 * so nothing invisible may make two spellings of one reference differ, and
 * ASCII because JavaScript and Postgres upper-case alike only there. Empty
 * passes here, so that it is only "required".
 */
const OUTBOUND_REFERENCE = /^(?:[A-Za-z0-9][A-Za-z0-9 ._/-]*)?$/;

function OutboundReference(): PropertyDecorator {
  return (target, key) => {
    Trimmed()(target, key);
    IsString({ message: 'outbound_reference must be a string' })(target, key);
    IsNotEmpty({ message: 'outbound_reference is required' })(target, key);
    MaxLength(OUTBOUND_REFERENCE_MAX, { message: `outbound_reference must be at most ${OUTBOUND_REFERENCE_MAX} characters` })(target, key);
    Matches(OUTBOUND_REFERENCE, { message: 'outbound_reference must be the bank’s reference: letters, digits, spaces and . _ / -, starting with a letter or digit' })(target, key);
  };
}

/** Body of POST /v1/refunds: always a full refund of the payment. */
export class RequestRefundBody {
  @IsString({ message: 'payment_id must be a string' })
  @Matches(PAYMENT_ID_PATTERN, { message: 'payment_id must look like txn_…' })
  payment_id!: string;

  @IsOptional()
  @Trimmed()
  @IsString({ message: 'reason must be a string' })
  @RefundText('reason')
  reason?: string;
}

/** `refunds.request.v1`: the merchant API (POST /v1/refunds) or the dashboard's "request refund". */
export class RequestRefundCommand extends MerchantScope {
  @IsString()
  @Matches(PAYMENT_ID_PATTERN, { message: 'payment_id must look like txn_…' })
  payment_id!: string;

  @IsOptional()
  @Trimmed()
  @IsString()
  @RefundText('reason')
  reason?: string | null;

  /** The API key id or the dashboard user id. */
  @IsString()
  @Length(1, 255)
  requested_by!: string;

  /** Recorded with the append: a repeat answers the refund it created (replayed: true). */
  @IsOptional()
  @ValidateNested()
  @Type(() => IdempotencyToken)
  idempotency?: IdempotencyToken;
}

/** A platform admin's action on a refund (live flow). Not merchant-scoped: the operator sees every merchant. */
export class RefundAdminCommand {
  @IsString()
  @Matches(REFUND_ID_PATTERN, { message: 'refund_id must look like rf_…' })
  refund_id!: string;

  /** Who acted: a platform admin id, or 'admin:<token id>' for the admin token. */
  @IsString()
  @Length(1, 255)
  admin_id!: string;
}

export class RejectRefundBody {
  @RequiredText('rejection_reason')
  rejection_reason!: string;
}

export class RejectRefundCommand extends RefundAdminCommand {
  @RequiredText('rejection_reason')
  rejection_reason!: string;
}

/** Live completion: both inputs are required (PRODUCT-RULES §2.5, §3.3). */
export class CompleteRefundBody {
  @OutboundReference()
  outbound_reference!: string;

  @RequiredText('evidence_note')
  evidence_note!: string;
}

export class CompleteRefundCommand extends RefundAdminCommand {
  @OutboundReference()
  outbound_reference!: string;

  @RequiredText('evidence_note')
  evidence_note!: string;
}

/** The outbound transfer bounced after SENT. */
export class FailRefundBody {
  @RequiredText('failure_reason')
  failure_reason!: string;
}

export class FailRefundCommand extends RefundAdminCommand {
  @RequiredText('failure_reason')
  failure_reason!: string;
}

/** `refunds.cancel.v1`: the merchant withdraws a refund before it is approved. */
export class CancelRefundCommand extends MerchantScope {
  @IsString()
  @Matches(REFUND_ID_PATTERN, { message: 'refund_id must look like rf_…' })
  refund_id!: string;

  @IsString()
  @Length(1, 255)
  cancelled_by!: string;
}

/** Query string of GET /v1/refunds; any failure is 400 'Invalid query parameters'. */
export class ListRefundsParams extends PageLimitParams {
  @IsOptional()
  @IsString()
  @Matches(PAYMENT_ID_PATTERN)
  payment_id?: string;

  @IsOptional()
  @IsIn(REFUND_STATUSES)
  status?: RefundStatus;

  @IsOptional()
  @IsString()
  @Matches(REFUND_ID_PATTERN)
  starting_after?: string;
}

/** `ledger.refunds.list.v1`: the params, validated, with the caller's scope. */
export class ListRefundsQuery extends ListRefundsParams {
  @IsString()
  @Length(1, 64)
  merchant_id!: string;

  @IsBoolean()
  livemode!: boolean;
}

/** `ledger.refunds.admin-list.v1` and GET /v1/admin/refunds: every merchant and mode (the operator's queue). */
export class AdminListRefundsParams extends ListRefundsParams {}

export class GetRefundQuery extends MerchantScope {
  @IsString()
  @Length(1, 80)
  refund_id!: string;
}

export class AdminGetRefundQuery {
  @IsString()
  @Length(1, 80)
  refund_id!: string;
}

/** `payments.decide-refund.v1`: the payment aggregate's decision to refund, without appending it. */
export class DecideRefundCommand extends MerchantScope {
  @IsString()
  @Matches(PAYMENT_ID_PATTERN, { message: 'payment_id must look like txn_…' })
  payment_id!: string;

  @IsString()
  @Matches(REFUND_ID_PATTERN, { message: 'refund_id must look like rf_…' })
  refund_id!: string;
}

export interface DecideRefundReply {
  /** The payment at the version the decision was made on. */
  payment: PaymentView;
  /**
   * The payment stream's part of the append that refunds it (transaction.refunded
   * and payment.refunded, at the loaded version), or null when the payment is
   * already REFUNDED. The caller appends it atomically with its own stream; a
   * payment that moved meanwhile fails that append with CONCURRENCY_CONFLICT.
   */
  append: StreamAppend | null;
}

/**
 * A stage command's answer: the refund, and whether this command moved it
 * (false: the refund was already at the stage it leads to, and nothing was
 * appended). `changed` says who did it on an audit trail; HTTP clients get the
 * refund without it.
 */
export type RefundStageReply = RefundView & { changed: boolean };

export interface RefundSubjects {
  /**
   * Served by refunds. Test mode runs the whole flow (REQUESTED → APPROVED → SENT → COMPLETED, payment REFUNDED)
   * in one atomic append. Errors: NOT_FOUND 'Payment not found' (unknown, other merchant or mode); CONFLICT
   * 'Payment already refunded', 'A refund is already open for this payment' (details.rule refund_open),
   * 'A FAILED payment cannot be refunded' (any status but CONFIRMED).
   */
  'refunds.request.v1': { request: RequestRefundCommand; reply: RefundView & { replayed: boolean } };
  /** Served by refunds (admin). REQUESTED → APPROVED; repeat: no change (changed: false). CONFLICT 'Refund is SENT; it cannot be approved'. */
  'refunds.approve.v1': { request: RefundAdminCommand; reply: RefundStageReply };
  /** REQUESTED or APPROVED (not yet claimed by mark-sent) → REJECTED. */
  'refunds.reject.v1': { request: RejectRefundCommand; reply: RefundStageReply };
  /** APPROVED → SENT: the operator's claim, taken before the outbound e-transfer is sent; a SENT refund can no longer be rejected. */
  'refunds.mark-sent.v1': { request: RefundAdminCommand; reply: RefundStageReply };
  /**
   * SENT → COMPLETED, and the payment REFUNDED with exactly one payment.refunded, in one atomic append.
   * A repeat with the same outbound_reference (in any case, spacing or punctuation) changes nothing (changed: false).
   */
  'refunds.complete.v1': { request: CompleteRefundCommand; reply: RefundStageReply };
  /** SENT → FAILED: the outbound transfer bounced or could not be made; the payment stays CONFIRMED and may be refunded again. */
  'refunds.fail.v1': { request: FailRefundCommand; reply: RefundStageReply };
  /** Served by refunds (merchant). REQUESTED → CANCELLED (not once approved: the operator may be sending the money). NOT_FOUND 'Refund not found' outside the caller's merchant and mode. */
  'refunds.cancel.v1': { request: CancelRefundCommand; reply: RefundStageReply };
  /** Served by sessions (owner of the payment aggregate). NOT_FOUND 'Payment not found'; CONFLICT for a payment that is not CONFIRMED or REFUNDED. */
  'payments.decide-refund.v1': { request: DecideRefundCommand; reply: DecideRefundReply };
  /** Served by the ledger's refunds read model. NOT_FOUND 'Refund not found' outside the caller's merchant and mode. */
  'ledger.refunds.get.v1': { request: GetRefundQuery; reply: RefundView };
  /** Newest first. NOT_FOUND 'Refund not found' when starting_after is not a refund of the caller. */
  'ledger.refunds.list.v1': { request: ListRefundsQuery; reply: ListPage<RefundView> };
  'ledger.refunds.admin-get.v1': { request: AdminGetRefundQuery; reply: RefundView };
  'ledger.refunds.admin-list.v1': { request: AdminListRefundsParams; reply: ListPage<RefundView> };
}
