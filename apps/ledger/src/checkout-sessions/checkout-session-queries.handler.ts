import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  type CheckoutSessionRef,
  type CheckoutSessionStatus,
  type CheckoutSessionView,
  DomainError,
  ErrorCode,
  FindCheckoutSessionByMemoQuery,
  GetCheckoutSessionQuery,
  ListCheckoutSessionsQuery,
  type ListPage,
  DEFAULT_PAGE_LIMIT,
  type OverdueCheckoutSession,
  OverdueCheckoutSessionsQuery,
  ResolveCheckoutSessionReferenceQuery,
} from '@pp/contracts';
import { toIso } from '@pp/kernel';
import { Batcher, Handles } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';
import { listFilters } from '../queries/list-filters';

interface SessionRow {
  id: string;
  merchant_id: string;
  livemode: boolean;
  amount: string;
  reference: string;
  memo: string;
  status: CheckoutSessionStatus;
  client_secret: string;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, unknown> | null;
  expires_at: Date;
  created_at: Date;
}

/** The session a page begins after: the previous page's last. */
export interface SessionCursor {
  created_at: Date;
  id: string;
}

/**
 * A page of a merchant's sessions in a mode, newest first by (created_at, id), after `after` when one is given, with
 * only the filters asked for (listFilters): by status from checkout_sessions_by_merchant_status, the rest from
 * checkout_sessions_listing, each read in the list's order from where the cursor falls. PENDING leaves out sessions
 * past their deadline at `now`, which read as EXPIRED (sessionStatusAt); EXPIRED lists those the sweep has expired,
 * since an OR of the two could not be read from one index in the list's order.
 */
export function listCheckoutSessionsQuery(
  query: Pick<ListCheckoutSessionsQuery, 'merchant_id' | 'livemode' | 'status'>,
  after: SessionCursor | null,
  limit: number,
  now: Date,
): { text: string; values: unknown[] } {
  const { sql, values } = listFilters(
    [
      { condition: (p) => `status = ${p}::text`, value: query.status },
      { condition: (p) => `expires_at > ${p}::timestamptz`, value: query.status === 'PENDING' ? now : undefined },
      { condition: (at, id) => `(created_at, id) < (${at}::timestamptz, ${id}::text)`, value: after && [after.created_at, after.id], tuple: true },
    ],
    4,
  );
  return {
    text: `SELECT * FROM ledger.checkout_sessions WHERE merchant_id = $1 AND livemode = $2${sql} ORDER BY created_at DESC, id DESC LIMIT $3`,
    values: [query.merchant_id, query.livemode, limit, ...values],
  };
}

/** Queries on the checkout_sessions read model. */
@Controller()
export class CheckoutSessionQueriesHandler {
  /** Memos asked about in one turn (a burst of live transfers being recorded) are looked up in one statement. */
  private readonly memoLookups = new Batcher<string, CheckoutSessionRef | undefined>((memos) => this.sessionsOfMemos(memos));

  constructor(@Inject(LEDGER_POOL) private readonly pool: Pool) {}

  @Handles('ledger.checkout-sessions.get.v1')
  async get(@Payload() query: GetCheckoutSessionQuery): Promise<CheckoutSessionView> {
    const { rows } = await this.pool.query<SessionRow>(
      'SELECT * FROM ledger.checkout_sessions WHERE id = $1 AND merchant_id = $2 AND livemode = $3',
      [query.session_id, query.merchant_id, query.livemode],
    );
    if (rows.length === 0) throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');
    return toSessionView(rows[0], new Date());
  }

  @Handles('ledger.checkout-sessions.list.v1')
  async list(@Payload() query: ListCheckoutSessionsQuery): Promise<ListPage<CheckoutSessionView>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    let after: SessionCursor | null = null;
    if (query.starting_after) {
      const { rows } = await this.pool.query<SessionCursor>(
        'SELECT created_at, id FROM ledger.checkout_sessions WHERE id = $1 AND merchant_id = $2 AND livemode = $3',
        [query.starting_after, query.merchant_id, query.livemode],
      );
      if (rows.length === 0) throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');
      after = rows[0];
    }
    const now = new Date();
    const { text, values } = listCheckoutSessionsQuery(query, after, limit + 1, now);
    const { rows } = await this.pool.query<SessionRow>(text, values);
    return { data: rows.slice(0, limit).map((row) => toSessionView(row, now)), has_more: rows.length > limit };
  }

  /**
   * PRODUCT-RULES §4.6 matches the reference case-insensitively, while references are
   * unique only as typed: an exact match wins, several case-insensitive
   * matches without one are ambiguous. The exact match comes first, so it is
   * among the rows read however many case variants the merchant has.
   */
  @Handles('ledger.checkout-sessions.resolve.v1')
  async resolve(@Payload() query: ResolveCheckoutSessionReferenceQuery): Promise<CheckoutSessionRef> {
    const { rows } = await this.pool.query<CheckoutSessionRef & { reference: string }>(
      `SELECT id AS session_id, merchant_id, livemode, reference FROM ledger.checkout_sessions
       WHERE merchant_id = $1 AND livemode = $2 AND lower(reference) = lower($3)
       ORDER BY reference = $3 DESC
       LIMIT 20`,
      [query.merchant_id, query.livemode, query.reference],
    );
    const exact = rows.find((row) => row.reference === query.reference);
    if (rows.length === 0) throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');
    if (!exact && rows.length > 1) {
      throw new DomainError(ErrorCode.Conflict, 'Reference matches several checkout sessions when case is ignored; use sessionId');
    }
    const found = exact ?? rows[0];
    return { session_id: found.session_id, merchant_id: found.merchant_id, livemode: found.livemode };
  }

  @Handles('ledger.checkout-sessions.by-memo.v1')
  async byMemo(@Payload() query: FindCheckoutSessionByMemoQuery): Promise<CheckoutSessionRef> {
    const session = await this.memoLookups.add(query.memo);
    if (!session) throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');
    return session;
  }

  /** The session of each memo (unique across merchants and modes), in order; undefined for an unknown one. */
  private async sessionsOfMemos(memos: string[]): Promise<(CheckoutSessionRef | undefined)[]> {
    const { rows } = await this.pool.query<CheckoutSessionRef & { memo: string }>(
      'SELECT memo, id AS session_id, merchant_id, livemode FROM ledger.checkout_sessions WHERE memo = ANY($1::text[])',
      [[...new Set(memos)]],
    );
    const byMemo = new Map(rows.map(({ memo, ...session }) => [memo, session]));
    return memos.map((memo) => byMemo.get(memo));
  }

  @Handles('ledger.checkout-sessions.overdue.v1')
  async overdue(@Payload() query: OverdueCheckoutSessionsQuery): Promise<{ sessions: OverdueCheckoutSession[] }> {
    const { rows } = await this.pool.query<Pick<SessionRow, 'id' | 'merchant_id' | 'livemode' | 'expires_at'>>(
      // Two statements, not `$3 IS NULL OR …`: each prepared one is planned for the filter it has.
      `SELECT id, merchant_id, livemode, expires_at FROM ledger.checkout_sessions
       WHERE status = 'PENDING' AND expires_at <= $1${query.after ? ' AND (expires_at, id) > ($3::timestamptz, $4::text)' : ''}
       ORDER BY expires_at, id LIMIT $2`,
      query.after ? [query.due_by, query.limit, query.after.expires_at, query.after.session_id] : [query.due_by, query.limit],
    );
    return {
      sessions: rows.map((row) => ({
        session_id: row.id,
        merchant_id: row.merchant_id,
        livemode: row.livemode,
        expires_at: toIso(row.expires_at),
      })),
    };
  }
}

/**
 * A session's status at `now`: one PENDING past its deadline reads as EXPIRED before the sweep expires it, as the
 * payer's page reads it and as a payment would find it (no longer open), however far behind the sweep is.
 */
const sessionStatusAt = (row: SessionRow, now: Date): CheckoutSessionStatus =>
  row.status === 'PENDING' && row.expires_at.getTime() <= now.getTime() ? 'EXPIRED' : row.status;

const toSessionView = (row: SessionRow, now: Date): CheckoutSessionView => ({
  id: row.id,
  amount: Number(row.amount),
  currency: 'CAD',
  reference: row.reference,
  memo: row.memo,
  status: sessionStatusAt(row, now),
  livemode: row.livemode,
  client_secret: row.client_secret,
  success_url: row.success_url,
  cancel_url: row.cancel_url,
  metadata: row.metadata,
  expires_at: toIso(row.expires_at),
  created_at: toIso(row.created_at),
});
