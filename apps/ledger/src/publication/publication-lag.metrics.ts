import { Inject, Injectable } from '@nestjs/common';
import { PUBLICATION_LAG, PUBLICATION_LAG_SECONDS, ServiceMetrics } from '@pp/platform';
import type { Pool } from 'pg';
import { LEDGER_POOL } from '../event-store/ledger-pool';
import { PUBLISHER } from './event-publisher';

/** Counting stops here: a backlog this long already needs a person, and the count stays one short index scan. */
const COUNT_LIMIT = 100_000;

/**
 * How far JetStream is behind the event store, read at each scrape: the
 * committed events after the publisher's stored checkpoint (on its
 * (transaction_id, position) order; it trails publication by up to 250 ms)
 * and the age of the oldest of them. Every replica reports the same
 * numbers, whichever one publishes.
 */
@Injectable()
export class PublicationLagMetrics {
  constructor(@Inject(LEDGER_POOL) pool: Pool, metrics: ServiceMetrics) {
    metrics.readAtScrapeTogether({ events: PUBLICATION_LAG, seconds: PUBLICATION_LAG_SECONDS }, async () => {
      const { events, seconds } = await lag(pool);
      return { events: [{ labels: {}, value: events }], seconds: [{ labels: {}, value: seconds }] };
    });
  }
}

async function lag(pool: Pool): Promise<{ events: number; seconds: number }> {
  const { rows } = await pool.query<{ events: string; seconds: number }>(
    `WITH checkpoint AS (
       SELECT coalesce(max(transaction_id::text), '0')::xid8 AS transaction_id, coalesce(max(position), 0) AS position
       FROM ledger.publication_checkpoints WHERE publisher = $1
     ), unpublished AS (
       SELECT e.created_at FROM ledger.events e, checkpoint c
       WHERE (e.transaction_id, e.position) > (c.transaction_id, c.position)
       ORDER BY e.transaction_id, e.position
       LIMIT $2
     )
     SELECT count(*) AS events, coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS seconds FROM unpublished`,
    [PUBLISHER, COUNT_LIMIT],
  );
  return { events: Number(rows[0].events), seconds: Math.max(0, rows[0].seconds) };
}
