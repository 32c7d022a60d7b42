import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AdminGetRefundQuery, AdminListRefundsParams, DEFAULT_PAGE_LIMIT, DomainError, ErrorCode, GetRefundQuery, type ListPage, ListRefundsQuery, pageOf, type RefundView } from '@pp/contracts';
import { toIso } from '@pp/kernel';
import { Handles } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';
import { listFilters } from '../queries/list-filters';

type StageTime = 'approved_at' | 'rejected_at' | 'sent_at' | 'completed_at' | 'failed_at' | 'cancelled_at';

/** A ledger.refunds row: the view with its amount as pg returns a bigint, and its times as dates. */
type RefundRow = Omit<RefundView, 'amount' | 'created_at' | 'requested_at' | StageTime> & {
  amount: string;
  requested_at: Date;
} & Record<StageTime, Date | null>;

const COLUMNS = `id, merchant_id, livemode, payment_id, amount, status, requested_by, reason, outbound_reference, evidence_note,
  rejection_reason, failure_reason, requested_at, approved_at, rejected_at, sent_at, completed_at, failed_at, cancelled_at`;

/** What a list of refunds may be filtered by; undefined or null is not asked for. */
export interface RefundFilters {
  payment_id?: string;
  status?: string;
  /** The position the page begins before: the previous page's last refund's. */
  before?: string | null;
}

/** The merchant and mode a refund is read in; null for the operator, who reads every merchant's. */
export type RefundScope = { merchant_id: string; livemode: boolean } | null;

/**
 * A page of a merchant's and mode's refunds (scope null: every merchant's, for the operator), newest first by the
 * position of the request, with only the filters asked for (listFilters), each served by its index: a merchant's by
 * status from refunds_by_merchant_status, the operator's by status from refunds_by_status, a payment's from
 * refunds_by_payment, a merchant's whole list from refunds_listing.
 */
export function listRefundsQuery(scope: RefundScope, filters: RefundFilters, limit: number): { text: string; values: unknown[] } {
  const { sql, values } = listFilters(
    [
      { condition: (p) => `merchant_id = ${p}::text`, value: scope?.merchant_id },
      { condition: (p) => `livemode = ${p}::boolean`, value: scope?.livemode },
      { condition: (p) => `payment_id = ${p}::text`, value: filters.payment_id },
      { condition: (p) => `status = ${p}::text`, value: filters.status },
      { condition: (p) => `position < ${p}::bigint`, value: filters.before },
    ],
    2,
  );
  return { text: `SELECT ${COLUMNS} FROM ledger.refunds WHERE true${sql} ORDER BY position DESC LIMIT $1`, values: [limit, ...values] };
}

const NOT_FOUND = 'Refund not found';

/** Queries on the refunds read model: the merchant's (scoped by merchant and mode) and the platform operator's (all). */
@Controller()
export class RefundQueriesHandler {
  constructor(@Inject(LEDGER_POOL) private readonly pool: Pool) {}

  @Handles('ledger.refunds.get.v1')
  get(@Payload() query: GetRefundQuery): Promise<RefundView> {
    return this.one(query.refund_id, query);
  }

  @Handles('ledger.refunds.list.v1')
  list(@Payload() query: ListRefundsQuery): Promise<ListPage<RefundView>> {
    return this.page(query, { merchant_id: query.merchant_id, livemode: query.livemode });
  }

  @Handles('ledger.refunds.admin-get.v1')
  adminGet(@Payload() query: AdminGetRefundQuery): Promise<RefundView> {
    return this.one(query.refund_id, null);
  }

  @Handles('ledger.refunds.admin-list.v1')
  adminList(@Payload() query: AdminListRefundsParams): Promise<ListPage<RefundView>> {
    return this.page(query, null);
  }

  private async one(refundId: string, scope: RefundScope): Promise<RefundView> {
    const { rows } = await this.pool.query<RefundRow>(
      `SELECT ${COLUMNS} FROM ledger.refunds WHERE id = $1 AND ($2::text IS NULL OR (merchant_id = $2::text AND livemode = $3::boolean))`,
      [refundId, scope?.merchant_id ?? null, scope?.livemode ?? null],
    );
    if (rows.length === 0) throw new DomainError(ErrorCode.NotFound, NOT_FOUND);
    return toRefundView(rows[0]);
  }

  private async page(query: AdminListRefundsParams, scope: RefundScope): Promise<ListPage<RefundView>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const before = query.starting_after ? await this.positionOf(query.starting_after, scope) : null;
    const { text, values } = listRefundsQuery(scope, { payment_id: query.payment_id, status: query.status, before }, limit + 1);
    const { rows } = await this.pool.query<RefundRow>(text, values);
    return pageOf(rows, limit, toRefundView);
  }

  private async positionOf(refundId: string, scope: RefundScope): Promise<string> {
    const { rows } = await this.pool.query<{ position: string }>(
      `SELECT position FROM ledger.refunds WHERE id = $1 AND ($2::text IS NULL OR (merchant_id = $2::text AND livemode = $3::boolean))`,
      [refundId, scope?.merchant_id ?? null, scope?.livemode ?? null],
    );
    if (rows.length === 0) throw new DomainError(ErrorCode.NotFound, NOT_FOUND);
    return rows[0].position;
  }
}

const isoOrNull = (value: Date | null): string | null => (value === null ? null : toIso(value));

const toRefundView = ({ amount, requested_at, approved_at, rejected_at, sent_at, completed_at, failed_at, cancelled_at, ...row }: RefundRow): RefundView => ({
  ...row,
  amount: Number(amount),
  created_at: toIso(requested_at),
  requested_at: toIso(requested_at),
  approved_at: isoOrNull(approved_at),
  rejected_at: isoOrNull(rejected_at),
  sent_at: isoOrNull(sent_at),
  completed_at: isoOrNull(completed_at),
  failed_at: isoOrNull(failed_at),
  cancelled_at: isoOrNull(cancelled_at),
});
