import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { AdminGetRefundQuery, AdminListRefundsParams, DEFAULT_PAGE_LIMIT, DomainError, ErrorCode, GetRefundQuery, type ListPage, ListRefundsQuery, pageOf, type RefundView } from '@pp/contracts';
import { toIso } from '@pp/kernel';
import { Handles } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';

type StageTime = 'approved_at' | 'rejected_at' | 'sent_at' | 'completed_at' | 'failed_at' | 'cancelled_at';

/** A ledger.refunds row: the view with its amount as pg returns a bigint, and its times as dates. */
type RefundRow = Omit<RefundView, 'amount' | 'created_at' | 'requested_at' | StageTime> & {
  amount: string;
  requested_at: Date;
} & Record<StageTime, Date | null>;

const COLUMNS = `id, merchant_id, livemode, payment_id, amount, status, requested_by, reason, outbound_reference, evidence_note,
  rejection_reason, failure_reason, requested_at, approved_at, rejected_at, sent_at, completed_at, failed_at, cancelled_at`;

/** A merchant's and mode's refunds (both null: every merchant's, for the operator), newest first by the position of the request. */
const LIST_SQL = `
  SELECT ${COLUMNS} FROM ledger.refunds
  WHERE ($1::text IS NULL OR merchant_id = $1::text)
    AND ($2::boolean IS NULL OR livemode = $2::boolean)
    AND ($3::text IS NULL OR payment_id = $3::text)
    AND ($4::text IS NULL OR status = $4::text)
    AND ($5::bigint IS NULL OR position < $5::bigint)
  ORDER BY position DESC
  LIMIT $6`;

const NOT_FOUND = 'Refund not found';

type Scope = { merchant_id: string; livemode: boolean } | null;

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

  private async one(refundId: string, scope: Scope): Promise<RefundView> {
    const { rows } = await this.pool.query<RefundRow>(
      `SELECT ${COLUMNS} FROM ledger.refunds WHERE id = $1 AND ($2::text IS NULL OR (merchant_id = $2::text AND livemode = $3::boolean))`,
      [refundId, scope?.merchant_id ?? null, scope?.livemode ?? null],
    );
    if (rows.length === 0) throw new DomainError(ErrorCode.NotFound, NOT_FOUND);
    return toRefundView(rows[0]);
  }

  private async page(query: AdminListRefundsParams, scope: Scope): Promise<ListPage<RefundView>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const before = query.starting_after ? await this.positionOf(query.starting_after, scope) : null;
    const { rows } = await this.pool.query<RefundRow>(LIST_SQL, [
      scope?.merchant_id ?? null,
      scope?.livemode ?? null,
      query.payment_id ?? null,
      query.status ?? null,
      before,
      limit + 1,
    ]);
    return pageOf(rows, limit, toRefundView);
  }

  private async positionOf(refundId: string, scope: Scope): Promise<string> {
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
