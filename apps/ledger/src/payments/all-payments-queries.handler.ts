import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { type AdminPaymentView, DEFAULT_PAGE_LIMIT, DomainError, ErrorCode, ListAllPaymentsQuery, type ListPage, pageOf } from '@pp/contracts';
import { Handles } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';
import { type ListFilter, listFilters } from '../queries/list-filters';
import { PAYMENT_COLUMNS, type PaymentRow, toPaymentView } from './payment-queries.handler';

interface AdminPaymentRow extends PaymentRow {
  email_id: string | null;
  reference_number: string | null;
}

/**
 * The merchant and mode a list asked for: the scope its cursor must lie in, as
 * its rows do. Not the status: a payment leaves the review queue while the
 * queue is paged (verified on the page just read), and its position still
 * marks where the next page begins.
 */
const scopeFilters = (query: Pick<ListAllPaymentsQuery, 'merchant_id' | 'livemode'>): ListFilter[] => [
  { condition: (p) => `merchant_id = ${p}::text`, value: query.merchant_id },
  { condition: (p) => `livemode = ${p}::boolean`, value: query.livemode },
];

/**
 * Payments across merchants for platform admins, newest first, with only the
 * filters asked for (listFilters): the review queue (status
 * REQUIRES_MANUAL_REVIEW) of live e-mail ingest is served by the index
 * payments_by_status, one merchant's by payments_by_merchant_status.
 */
export function listAllPaymentsQuery(query: Pick<ListAllPaymentsQuery, 'status' | 'merchant_id' | 'livemode'>, before: string | null, limit: number): { text: string; values: unknown[] } {
  const { sql, values } = listFilters(
    [{ condition: (p) => `status = ${p}::text`, value: query.status }, ...scopeFilters(query), { condition: (p) => `position < ${p}::bigint`, value: before }],
    2,
  );
  return {
    text: `SELECT ${PAYMENT_COLUMNS}, email_id, reference_number FROM ledger.payments WHERE true${sql} ORDER BY position DESC LIMIT $1`,
    values: [limit, ...values],
  };
}

@Controller()
export class AllPaymentsQueriesHandler {
  constructor(@Inject(LEDGER_POOL) private readonly pool: Pool) {}

  @Handles('ledger.payments.list-all.v1')
  async listAll(@Payload() query: ListAllPaymentsQuery): Promise<ListPage<AdminPaymentView>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const before = query.starting_after ? await this.positionOf(query, query.starting_after) : null;
    const { text, values } = listAllPaymentsQuery(query, before, limit + 1);
    const { rows } = await this.pool.query<AdminPaymentRow>(text, values);
    return pageOf(rows, limit, (row) => ({ ...toPaymentView(row), merchant_id: row.merchant_id, email_id: row.email_id, reference_number: row.reference_number }));
  }

  /** The cursor's position, if it is a payment in the list's scope (scopeFilters); another merchant's or mode's is not found. */
  private async positionOf(query: ListAllPaymentsQuery, paymentId: string): Promise<string> {
    const { sql, values } = listFilters(scopeFilters(query), 2);
    const { rows } = await this.pool.query<{ position: string }>(`SELECT position FROM ledger.payments WHERE id = $1${sql}`, [paymentId, ...values]);
    if (rows.length === 0) throw new DomainError(ErrorCode.NotFound, 'Payment not found');
    return rows[0].position;
  }
}
