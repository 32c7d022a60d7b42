import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  DEFAULT_PAGE_LIMIT,
  DomainError,
  ErrorCode,
  GetMerchantEventQuery,
  ListMerchantEventsQuery,
  type ListPage,
  type MerchantEventView,
  type MerchantScope,
  pageOf,
} from '@pp/contracts';
import { toIso } from '@pp/kernel';
import { Handles } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';
import { listFilters } from '../queries/list-filters';

interface MerchantEventRow {
  id: string;
  type: string;
  livemode: boolean;
  data: Record<string, unknown>;
  created_at: Date;
}

const notFound = () => new DomainError(ErrorCode.NotFound, 'Event not found');

/**
 * The merchant_events read model in log (position) order, scoped by merchant
 * and mode: GET /v1/events and /v1/events/:id newest first, and the event
 * stream's forward read oldest first (listMerchantEventsQuery).
 */
@Controller()
export class MerchantEventQueriesHandler {
  constructor(@Inject(LEDGER_POOL) private readonly pool: Pool) {}

  @Handles('ledger.merchant-events.list.v1')
  async list(@Payload() query: ListMerchantEventsQuery): Promise<ListPage<MerchantEventView>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    const { text, values } = listMerchantEventsQuery(query, await this.pageBoundary(query), limit + 1);
    const { rows } = await this.pool.query<MerchantEventRow>(text, values);
    return pageOf(rows, limit, toView);
  }

  @Handles('ledger.merchant-events.get.v1')
  async get(@Payload() query: GetMerchantEventQuery): Promise<MerchantEventView> {
    const { rows } = await this.pool.query<MerchantEventRow>(
      'SELECT id, type, livemode, data, created_at FROM ledger.merchant_events WHERE id = $1 AND merchant_id = $2 AND livemode = $3',
      [query.event_id, query.merchant_id, query.livemode],
    );
    if (rows.length === 0) throw notFound();
    return toView(rows[0]);
  }

  /** The position a page begins beyond: the previous page's last event, or the newest one created before created_since; null from either end of the log. */
  private async pageBoundary(query: ListMerchantEventsQuery): Promise<string | null> {
    if (query.starting_after) return this.positionOf(query, query.starting_after);
    if (query.order === 'oldest_first' && query.created_since) return this.newestPositionBefore(query, query.created_since);
    return null;
  }

  private async positionOf(scope: MerchantScope, eventId: string): Promise<string> {
    const { rows } = await this.pool.query<{ position: string }>(
      'SELECT position FROM ledger.merchant_events WHERE id = $1 AND merchant_id = $2 AND livemode = $3',
      [eventId, scope.merchant_id, scope.livemode],
    );
    if (rows.length === 0) throw notFound();
    return rows[0].position;
  }

  /**
   * The newest event, in log order, created before `time`: an oldest-first read from there holds every event created
   * since, one that committed late included (where a newest-first read stops). The index is walked back from the
   * newest event, so the cost is the events newer than `time`.
   */
  private async newestPositionBefore(scope: MerchantScope, time: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ position: string | null }>(
      'SELECT max(position) AS position FROM ledger.merchant_events WHERE merchant_id = $1 AND livemode = $2 AND created_at < $3',
      [scope.merchant_id, scope.livemode, time],
    );
    return rows[0].position;
  }
}

/**
 * A page in log order after (oldest first) or before (newest first) the position `boundary`, when one is given, with
 * only the filters asked for (listFilters): by type from merchant_events_by_type, a payment's timeline from
 * merchant_events_by_payment, the rest from merchant_events_listing.
 */
export function listMerchantEventsQuery(
  query: Pick<ListMerchantEventsQuery, 'merchant_id' | 'livemode' | 'type' | 'payment_id' | 'order'>,
  boundary: string | null,
  limit: number,
): { text: string; values: unknown[] } {
  const oldestFirst = query.order === 'oldest_first';
  const { sql, values } = listFilters(
    [
      { condition: (p) => `type = ${p}::text`, value: query.type },
      { condition: (p) => `position ${oldestFirst ? '>' : '<'} ${p}::bigint`, value: boundary },
      { condition: (p) => `data->>'payment_id' = ${p}::text`, value: query.payment_id },
    ],
    4,
  );
  return {
    text: `SELECT id, type, livemode, data, created_at FROM ledger.merchant_events WHERE merchant_id = $1 AND livemode = $2${sql} ORDER BY position ${oldestFirst ? 'ASC' : 'DESC'} LIMIT $3`,
    values: [query.merchant_id, query.livemode, limit, ...values],
  };
}

const toView = (row: MerchantEventRow): MerchantEventView => ({
  id: row.id,
  type: row.type,
  livemode: row.livemode,
  data: row.data,
  created_at: toIso(row.created_at),
});
