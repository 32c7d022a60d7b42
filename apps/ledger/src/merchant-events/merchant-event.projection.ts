import { isMerchantEventType, type StoredEvent } from '@pp/contracts';
import type { ClientBase } from 'pg';
import type { Projection } from '../projections/projection';

/**
 * Merchant-visible events (checkout.session.expired, payment.confirmed, …),
 * scoped by merchant and mode. The id is the stored event's id, so it is the
 * same after a rebuild and equals the JetStream Nats-Msg-Id webhooks see.
 */
export const merchantEventProjection: Projection = {
  name: 'merchant_events',
  tables: ['ledger.merchant_events'],
  handles: (event) => isMerchantEventType(event.type),

  apply(db: ClientBase, event: StoredEvent): Promise<void> {
    return insertEvents(db, [event]);
  },

  applyBatch: insertEvents,
};

/** One row per event; each event is new, so order does not matter. */
async function insertEvents(db: ClientBase, events: readonly StoredEvent[]): Promise<void> {
  await db.query(
    `INSERT INTO ledger.merchant_events (id, position, merchant_id, livemode, type, data, stream_id, created_at)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::boolean[], $5::text[], $6::jsonb[], $7::text[], $8::timestamptz[])`,
    [
      events.map((event) => event.id),
      events.map((event) => event.position),
      events.map((event) => event.metadata.merchant_id),
      events.map((event) => event.metadata.livemode),
      events.map((event) => event.type),
      events.map((event) => JSON.stringify(event.data)),
      events.map((event) => event.stream_id),
      events.map((event) => event.created_at),
    ],
  );
}
