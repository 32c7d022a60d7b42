import { Type } from 'class-transformer';
import { Equals, IsBoolean, IsIn, IsInt, IsObject, IsOptional, IsString, Length, Matches, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import type { CheckoutSessionView } from '../checkout-sessions/checkout-session.views';
import { MAX_AMOUNT_CENTS } from '../checkout-sessions/create-checkout-session.body';
import { type ListPage, PageLimitParams } from '../list-page';
import { MerchantScope } from '../merchant-scope';
import { IdempotencyToken } from '../idempotency';
import { PlainText } from '../plain-text';
import { PAYMENT_STATUSES, type PaymentStatus, type PaymentView } from './payment.views';
import { SIMULATED_OUTCOMES, type SimulatedOutcome } from './simulate-payment.body';
import { TransferEvidence } from './transfer-evidence';

export const PAYMENT_ID_PATTERN = /^txn_[a-z0-9]{8,64}$/;

/** `payments.simulate.v1`: the sandbox simulator (test mode only), from the gateway's simulate-payment or the dashboard's simulate action. */
export class SimulatePaymentCommand extends MerchantScope {
  @IsOptional()
  @IsString()
  @Length(1, 64)
  session_id?: string;

  @IsOptional()
  @IsString()
  @Length(1, 255)
  reference?: string;

  @IsIn(SIMULATED_OUTCOMES)
  outcome!: SimulatedOutcome;

  @ValidateNested()
  @Type(() => IdempotencyToken)
  idempotency!: IdempotencyToken;
}

export interface SimulatePaymentReply {
  transaction: PaymentView;
  session: CheckoutSessionView;
  replayed: boolean;
}

/** `payments.verify.v1`: a merchant administrator confirms a payment that needs review (dashboard). */
export class VerifyPaymentCommand extends MerchantScope {
  @IsString()
  @Matches(PAYMENT_ID_PATTERN, { message: 'payment_id must look like txn_…' })
  payment_id!: string;

  /** Who verified it (dashboard user id); recorded with the fact. */
  @IsString()
  @Length(1, 255)
  verified_by!: string;
}

/** `payments.record-transfer.v1`: a live transfer e-mail, with what the ingest established about it (docs/INGEST-FORMATS.md). */
export class RecordTransferCommand {
  @IsString()
  @Length(1, 64)
  merchant_id!: string;

  @Equals(true, { message: 'livemode must be true: only live transfers are recorded from e-mail' })
  livemode!: true;

  /** Idempotency: one payment per email_id, ever. */
  @IsString()
  @Length(1, 64)
  email_id!: string;

  /** The memo found in the transfer message (PP-XXXXXX), or null. */
  @IsOptional()
  @IsString()
  @Length(1, 64)
  memo!: string | null;

  /** Integer cents; 0 when the e-mail states no readable amount (it then always needs review). Bounded as a session's amount is, so it stays exact and fits the read model. */
  @IsInt()
  @Min(0)
  @Max(MAX_AMOUNT_CENTS)
  amount!: number;

  @IsString()
  @Length(1, 255)
  sender_name!: string;

  @IsOptional()
  @IsString()
  @Length(1, 320)
  sender_email!: string | null;

  @IsOptional()
  @IsString()
  @MaxLength(2000)
  comment!: string | null;

  /** The Interac reference number; null when the e-mail gives none (it then needs review). */
  @IsOptional()
  @IsString()
  @Length(1, 128)
  reference_number!: string | null;

  /** What the ingest established about the e-mail; the transfer-match policy decides from it alone. */
  @IsObject({ message: 'evidence must be an object' })
  @ValidateNested()
  @Type(() => TransferEvidence)
  evidence!: TransferEvidence;
}


/** Query string of GET /v1/payments (PRODUCT-RULES §4.3); any failure is 400 'Invalid query parameters'. */
export class ListPaymentsParams extends PageLimitParams {
  /** The rule of a session's reference (CreateCheckoutSessionBody): create and search take the same text. */
  @IsOptional()
  @IsString()
  @Length(1, 255)
  @PlainText('reference')
  reference?: string;

  @IsOptional()
  @IsIn(PAYMENT_STATUSES)
  status?: PaymentStatus;

  @IsOptional()
  @IsString()
  @Matches(PAYMENT_ID_PATTERN)
  starting_after?: string;
}

/** `ledger.payments.list.v1`: the params, validated, with the caller's scope. */
export class ListPaymentsQuery extends ListPaymentsParams {
  /** Only the payments of this checkout session (the dashboard's session detail; not a public API filter). */
  @IsOptional()
  @IsString()
  @Length(1, 64)
  session_id?: string;

  @IsString()
  @Length(1, 64)
  merchant_id!: string;

  @IsBoolean()
  livemode!: boolean;
}

/** `ledger.payments.get.v1`: one payment of the caller's merchant and mode (the dashboard's detail page). */
export class GetPaymentQuery extends MerchantScope {
  @IsString()
  @Matches(PAYMENT_ID_PATTERN, { message: 'payment_id must look like txn_…' })
  payment_id!: string;
}

/** record-transfer's refusal of an e-mail already recorded for another merchant; details: { rule, merchant_id, payment }. */
export const EMAIL_RECORDED_FOR_ANOTHER_MERCHANT_RULE = 'email_recorded_for_another_merchant';

export interface PaymentSubjects {
  /**
   * Served by sessions. Errors: NOT_FOUND 'Checkout session not found' (unknown, other merchant, live session),
   * CONFLICT 'Checkout session expired' / 'Checkout session already completed', VALIDATION_FAILED naming sessionId/reference.
   */
  'payments.simulate.v1': { request: SimulatePaymentCommand; reply: SimulatePaymentReply };
  /** Served by sessions. Idempotent: a CONFIRMED payment answers as is. Errors: NOT_FOUND 'Payment not found', CONFLICT for FAILED/REFUNDED. */
  'payments.verify.v1': { request: VerifyPaymentCommand; reply: PaymentView };
  /**
   * Served by sessions. Idempotent by email_id: a repeat answers the payment recorded first. CONFLICT with
   * details.rule EMAIL_RECORDED_FOR_ANOTHER_MERCHANT_RULE when that payment is another merchant's (the deposit address
   * moved between the two hand-offs): details name that merchant and carry the payment.
   */
  'payments.record-transfer.v1': { request: RecordTransferCommand; reply: PaymentView };
  /** Served by the ledger: newest first. NOT_FOUND 'Payment not found' when starting_after is not a payment of the caller. */
  'ledger.payments.list.v1': { request: ListPaymentsQuery; reply: ListPage<PaymentView> };
  /** Served by the ledger. NOT_FOUND 'Payment not found' for unknown ids and another merchant's or mode's payments. */
  'ledger.payments.get.v1': { request: GetPaymentQuery; reply: PaymentView };
}
