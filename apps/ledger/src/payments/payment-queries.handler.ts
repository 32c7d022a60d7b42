import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DEFAULT_PAGE_LIMIT, DomainError, ErrorCode, GetPaymentQuery, type ListPage, ListPaymentsQuery, type MerchantScope, pageOf, type PaymentView } from '@pp/contracts';
import { toIso } from '@pp/kernel';
import { Handles } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';
import { listFilters } from '../queries/list-filters';

/** A ledger.payments row: the view with its merchant, its amount as pg returns a bigint, and its time as a date. */
export type PaymentRow = Omit<PaymentView, 'amount' | 'created_at'> & { merchant_id: string; amount: string; created_at: Date };

/** LIKE pattern of a partial match: the input's own %, _ and \ match themselves. */
export const containsPattern = (input: string): string => `%${input.replace(/[\\%_]/g, '\\$&')}%`;

export const PAYMENT_COLUMNS = `id, merchant_id, livemode, session_id, etransfer_ref, amount, sender_name, sender_email, comment, status,
         verification_method, review_reasons, verified_by, created_at`;

/** What GET /v1/payments may filter a merchant's payments by; undefined or null is not asked for. */
export interface PaymentFilters {
  reference?: string;
  status?: string;
  /** The position the page begins before: the previous page's last payment's. */
  before?: string | null;
  /** A checkout session's payments (usually one; a few when transfers repeated), from the payments_by_session index. */
  session_id?: string;
}

/**
 * A page of a merchant's payments, newest first, with only the filters
 * asked for (listFilters), each served by its index: `reference` by the
 * trigram index on search_text (both sides lowercased by Postgres), `status`
 * by payments_by_merchant_status, the listing by payments_listing. The
 * cursor is the position of the payment's first event, which only grows.
 */
export function listPaymentsQuery(scope: MerchantScope, filters: PaymentFilters, limit: number): { text: string; values: unknown[] } {
  const { sql, values } = listFilters(
    [
      { condition: (p) => `search_text LIKE lower(${p}::text)`, value: filters.reference === undefined ? undefined : containsPattern(filters.reference) },
      { condition: (p) => `status = ${p}::text`, value: filters.status },
      { condition: (p) => `position < ${p}::bigint`, value: filters.before },
      { condition: (p) => `session_id = ${p}::text`, value: filters.session_id },
    ],
    4,
  );
  return {
    text: `SELECT ${PAYMENT_COLUMNS} FROM ledger.payments WHERE merchant_id = $1 AND livemode = $2${sql} ORDER BY position DESC LIMIT $3`,
    values: [scope.merchant_id, scope.livemode, limit, ...values],
  };
}

/** Queries on the payments read model. */
@Controller()
export class PaymentQueriesHandler {
  constructor(@Inject(LEDGER_POOL) private readonly pool: Pool) {}

  @Handles('ledger.payments.list.v1')
  async list(@Payload() query: ListPaymentsQuery): Promise<ListPage<PaymentView>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const before = query.starting_after ? await this.positionOf(query, query.starting_after) : null;
    const { text, values } = listPaymentsQuery(query, { reference: query.reference, status: query.status, before, session_id: query.session_id }, limit + 1);
    const { rows } = await this.pool.query<PaymentRow>(text, values);
    return pageOf(rows, limit, toPaymentView);
  }

  @Handles('ledger.payments.get.v1')
  async get(@Payload() query: GetPaymentQuery): Promise<PaymentView> {
    const { rows } = await this.pool.query<PaymentRow>(
      `SELECT ${PAYMENT_COLUMNS} FROM ledger.payments WHERE id = $1 AND merchant_id = $2 AND livemode = $3`,
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
