import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  AdminGetRefundQuery,
  AdminListRefundsParams,
  DEFAULT_PAGE_LIMIT,
  DomainError,
  ErrorCode,
  GetRefundQuery,
  type ListPage,
  ListRefundsQuery,
  type RefundView,
} from '@pp/contracts';
import { toIso } from '@pp/kernel';
import { Handles } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';

interface RefundRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  payment_id: string;
  amount: string;
  status: RefundView['status'];
  requested_by: string;
  reason: string | null;
  outbound_reference: string | null;
  evidence_note: string | null;
  rejection_reason: string | null;
  failure_reason: string | null;
  requested_at: Date;
  approved_at: Date | null;
  rejected_at: Date | null;
  sent_at: Date | null;
  completed_at: Date | null;
  failed_at: Date | null;
  cancelled_at: Date | null;
}

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
    return { data: rows.slice(0, limit).map(toRefundView), has_more: rows.length > limit };
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

const toRefundView = (row: RefundRow): RefundView => ({
  id: row.id,
  payment_id: row.payment_id,
  merchant_id: row.merchant_id,
  amount: Number(row.amount),
  status: row.status,
  livemode: row.livemode,
  requested_by: row.requested_by,
  reason: row.reason,
  outbound_reference: row.outbound_reference,
  evidence_note: row.evidence_note,
  rejection_reason: row.rejection_reason,
  failure_reason: row.failure_reason,
  created_at: toIso(row.requested_at),
  requested_at: toIso(row.requested_at),
  approved_at: isoOrNull(row.approved_at),
  rejected_at: isoOrNull(row.rejected_at),
  sent_at: isoOrNull(row.sent_at),
  completed_at: isoOrNull(row.completed_at),
  failed_at: isoOrNull(row.failed_at),
  cancelled_at: isoOrNull(row.cancelled_at),
});
