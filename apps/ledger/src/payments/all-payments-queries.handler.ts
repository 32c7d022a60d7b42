import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type AdminPaymentView, DEFAULT_PAGE_LIMIT, DomainError, ErrorCode, ListAllPaymentsQuery, type ListPage, pageOf } from '@pp/contracts';
import { Handles } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';
import { type PaymentRow, toPaymentView } from './payment-queries.handler';

interface AdminPaymentRow extends PaymentRow {
  email_id: string | null;
  reference_number: string | null;
}

/**
 * Payments across merchants for platform admins, newest first: the review
 * queue (status REQUIRES_MANUAL_REVIEW) of live e-mail ingest, served by the
 * index payments_by_status. Merchant and mode are optional filters here.
 */
export const LIST_ALL_PAYMENTS_SQL = `
  SELECT id, merchant_id, livemode, session_id, etransfer_ref, amount, sender_name, sender_email, comment, status,
         verification_method, review_reasons, verified_by, created_at, email_id, reference_number
  FROM ledger.payments
  WHERE ($1::text IS NULL OR status = $1::text)
    AND ($2::text IS NULL OR merchant_id = $2::text)
    AND ($3::boolean IS NULL OR livemode = $3::boolean)
    AND ($4::bigint IS NULL OR position < $4::bigint)
  ORDER BY position DESC
  LIMIT $5`;

@Controller()
export class AllPaymentsQueriesHandler {
  constructor(@Inject(LEDGER_POOL) private readonly pool: Pool) {}

  @Handles('ledger.payments.list-all.v1')
  async listAll(@Payload() query: ListAllPaymentsQuery): Promise<ListPage<AdminPaymentView>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const before = query.starting_after ? await this.positionOf(query.starting_after) : null;
    const { rows } = await this.pool.query<AdminPaymentRow>(LIST_ALL_PAYMENTS_SQL, [
      query.status ?? null,
      query.merchant_id ?? null,
      query.livemode ?? null,
      before,
      limit + 1,
    ]);
    return pageOf(rows, limit, (row) => ({ ...toPaymentView(row), merchant_id: row.merchant_id, email_id: row.email_id, reference_number: row.reference_number }));
  }

  private async positionOf(paymentId: string): Promise<string> {
    const { rows } = await this.pool.query<{ position: string }>('SELECT position FROM ledger.payments WHERE id = $1', [paymentId]);
    if (rows.length === 0) throw new DomainError(ErrorCode.NotFound, 'Payment not found');
    return rows[0].position;
  }
}
