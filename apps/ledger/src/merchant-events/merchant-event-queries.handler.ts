import { Controller, Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { DEFAULT_PAGE_LIMIT, DomainError, ErrorCode, GetMerchantEventQuery, ListMerchantEventsQuery, type ListPage, type MerchantEventView, pageOf } from '@pp/contracts';
import { toIso } from '@pp/kernel';
import { Handles } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';

interface MerchantEventRow {
  id: string;
  type: string;
  livemode: boolean;
  data: Record<string, unknown>;
  created_at: Date;
}

const notFound = () => new DomainError(ErrorCode.NotFound, 'Event not found');

/** GET /v1/events and /v1/events/:id from the merchant_events read model, newest first by position. */
@Controller()
export class MerchantEventQueriesHandler {
  constructor(@Inject(LEDGER_POOL) private readonly pool: Pool) {}

  @Handles('ledger.merchant-events.list.v1')
  async list(@Payload() query: ListMerchantEventsQuery): Promise<ListPage<MerchantEventView>> {
    const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
    let before: string | null = null;
    if (query.starting_after) {
      const { rows } = await this.pool.query<{ position: string }>(
        'SELECT position FROM ledger.merchant_events WHERE id = $1 AND merchant_id = $2 AND livemode = $3',
        [query.starting_after, query.merchant_id, query.livemode],
      );
      if (rows.length === 0) throw notFound();
      before = rows[0].position;
    }
    const { rows } = await this.pool.query<MerchantEventRow>(
      `SELECT id, type, livemode, data, created_at FROM ledger.merchant_events
       WHERE merchant_id = $1 AND livemode = $2
         AND ($3::text IS NULL OR type = $3::text)
         AND ($4::bigint IS NULL OR position < $4::bigint)
         AND ($6::text IS NULL OR data->>'payment_id' = $6::text)
       ORDER BY position DESC
       LIMIT $5`,
      [query.merchant_id, query.livemode, query.type ?? null, before, limit + 1, query.payment_id ?? null],
    );
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
}

const toView = (row: MerchantEventRow): MerchantEventView => ({
  id: row.id,
  type: row.type,
  livemode: row.livemode,
  data: row.data,
  created_at: toIso(row.created_at),
});
