import type { Pool } from 'pg';
import type { FirstEvent } from './refund-appends.policy';

/** The first event of each stream named that exists (one index lookup each, on the stream's version key). */
export async function readFirstEvents(pool: Pool, streamIds: readonly string[]): Promise<Map<string, FirstEvent>> {
  if (streamIds.length === 0) return new Map();
  const { rows } = await pool.query<FirstEvent & { stream_id: string }>(`SELECT stream_id, data, metadata FROM ledger.events WHERE stream_id = ANY($1::text[]) AND version = 1`, [streamIds]);
  return new Map(rows.map(({ stream_id, data, metadata }) => [stream_id, { data, metadata }]));
}
