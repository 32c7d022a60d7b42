import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { type ListPage, MAX_ADMIN_PAGE_LIMIT, PageLimit } from '../list-page';
import { PAYMENT_STATUSES, type PaymentStatus, type PaymentView } from './payment.views';
import { PAYMENT_ID_PATTERN } from './payments.subjects';

const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/**
 * Query string of GET /v1/admin/payments and `ledger.payments.list-all.v1`:
 * payments across merchants for platform admins (the review queue is
 * status=REQUIRES_MANUAL_REVIEW), newest first.
 */
export class ListAllPaymentsQuery {
  @IsOptional()
  @IsIn(PAYMENT_STATUSES)
  status?: PaymentStatus;

  @IsOptional()
  @IsString()
  @Matches(/^mer_[a-z0-9]{1,64}$/)
  merchant_id?: string;

  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  livemode?: boolean;

  @PageLimit(MAX_ADMIN_PAGE_LIMIT)
  limit?: number;

  @IsOptional()
  @IsString()
  @Matches(PAYMENT_ID_PATTERN)
  starting_after?: string;
}

/** A payment as platform admins see it: whose it is, and which e-mail it came from. */
export interface AdminPaymentView extends PaymentView {
  merchant_id: string;
  /** The ingested e-mail (em_…) of a live transfer, else null. */
  email_id: string | null;
  /** The Interac reference number the e-mail gave, else null. */
  reference_number: string | null;
}

export interface AdminPaymentSubjects {
  /**
   * Served by the ledger. NOT_FOUND 'Payment not found' when starting_after is no payment of the merchant_id and
   * livemode asked for; its status is not checked (a payment leaves the review queue while the queue is paged).
   */
  'ledger.payments.list-all.v1': { request: ListAllPaymentsQuery; reply: ListPage<AdminPaymentView> };
}
