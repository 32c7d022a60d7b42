import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DEFAULT_PAGE_LIMIT, DomainError, ErrorCode, GetPaymentQuery, type ListPage, ListPaymentsQuery, pageOf, type PaymentView } from '@pp/contracts';
import { toIso } from '@pp/kernel';
import { Handles } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';

/** A ledger.payments row: the view with its merchant, its amount as pg returns a bigint, and its time as a date. */
export type PaymentRow = Omit<PaymentView, 'amount' | 'created_at'> & { merchant_id: string; amount: string; created_at: Date };

/** LIKE pattern of a partial match: the input's own %, _ and \ match themselves. */
export const containsPattern = (input: string): string => `%${input.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * A page of a merchant's payments, newest first, with the filters and cursor
 * every list takes ($1 to $6), and `narrower` conditions of its own after
 * them. `reference` goes through the trigram index on search_text (both
 * sides lowercased by Postgres); the cursor is the position of the payment's
 * first event, which only grows.
 */
const listSql = (narrower = ''): string => `
  SELECT id, merchant_id, livemode, session_id, etransfer_ref, amount, sender_name, sender_email, comment, status,
         verification_method, review_reasons, verified_by, created_at
  FROM ledger.payments
  WHERE merchant_id = $1 AND livemode = $2${narrower}
    AND ($3::text IS NULL OR search_text LIKE lower($3::text))
    AND ($4::text IS NULL OR status = $4::text)
    AND ($5::bigint IS NULL OR position < $5::bigint)
  ORDER BY position DESC
  LIMIT $6`;

/** GET /v1/payments. */
export const LIST_PAYMENTS_SQL = listSql();

/**
 * The payments of one checkout session (usually one; a few when transfers
 * repeated), from the payments_by_session index ($7). It pages and filters
 * like the list: a page that says has_more must lead to the next.
 */
const SESSION_PAYMENTS_SQL = listSql(' AND session_id = $7');

/** Queries on the payments read model. */
@Controller()
export class PaymentQueriesHandler {
  constructor(@Inject(LEDGER_POOL) private readonly pool: Pool) {}

  @Handles('ledger.payments.list.v1')
  async list(@Payload() query: ListPaymentsQuery): Promise<ListPage<PaymentView>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const before = query.starting_after ? await this.positionOf(query, query.starting_after) : null;
    const params = [
      query.merchant_id,
      query.livemode,
      query.reference === undefined ? null : containsPattern(query.reference),
      query.status ?? null,
      before,
      limit + 1,
    ];
    const { rows } = query.session_id
      ? await this.pool.query<PaymentRow>(SESSION_PAYMENTS_SQL, [...params, query.session_id])
      : await this.pool.query<PaymentRow>(LIST_PAYMENTS_SQL, params);
    return pageOf(rows, limit, toPaymentView);
  }

  @Handles('ledger.payments.get.v1')
  async get(@Payload() query: GetPaymentQuery): Promise<PaymentView> {
    const { rows } = await this.pool.query<PaymentRow>(
      `SELECT id, merchant_id, livemode, session_id, etransfer_ref, amount, sender_name, sender_email, comment, status,
              verification_method, review_reasons, verified_by, created_at
       FROM ledger.payments WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
      [query.payment_id, query.merchant_id, query.livemode],
    );
    if (rows.length === 0) throw new DomainError(ErrorCode.NotFound, 'Payment not found');
    return toPaymentView(rows[0]);
  }

  private async positionOf(query: ListPaymentsQuery, paymentId: string): Promise<string> {
    const { rows } = await this.pool.query<{ position: string }>(
      'SELECT position FROM ledger.payments WHERE id = $1 AND merchant_id = $2 AND livemode = $3',
      [paymentId, query.merchant_id, query.livemode],
    );
    if (rows.length === 0) throw new DomainError(ErrorCode.NotFound, 'Payment not found');
    return rows[0].position;
  }
}

export const toPaymentView = (row: PaymentRow): PaymentView => ({
  id: row.id,
  etransfer_ref: row.etransfer_ref,
  amount: Number(row.amount),
  sender_name: row.sender_name,
  sender_email: row.sender_email,
  comment: row.comment,
  status: row.status,
  verification_method: row.verification_method,
  created_at: toIso(row.created_at),
  session_id: row.session_id,
  livemode: row.livemode,
  review_reasons: row.review_reasons,
  verified_by: row.verified_by,
});
