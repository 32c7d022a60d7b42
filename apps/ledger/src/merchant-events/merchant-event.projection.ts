import { isMerchantEventType } from '@pp/contracts';
import type { ClientBase } from 'pg';
import type { AppendedEvent, Projection } from '../projections/projection';

/**
 * Merchant-visible events (checkout.session.expired, payment.confirmed, …),
 * scoped by merchant and mode. The id is the stored event's id, so it is the
 * same after a rebuild and equals the JetStream Nats-Msg-Id webhooks see.
 */
export const merchantEventProjection: Projection = {
  name: 'merchant_events',
  tables: ['ledger.merchant_events'],
  handles: (event) => isMerchantEventType(event.type),

  apply(db: ClientBase, event: AppendedEvent): Promise<void> {
    return insertEvents(db, [event]);
  },

  applyBatch: insertEvents,
};

/** One row per event, copied from ledger.events (where its position and time are); each event is new, so order does not matter. */
async function insertEvents(db: ClientBase, events: readonly AppendedEvent[]): Promise<void> {
  await db.query(
    `INSERT INTO ledger.merchant_events (id, position, merchant_id, livemode, type, data, stream_id, created_at)
     SELECT e.id, e.position, e.metadata->>'merchant_id', (e.metadata->>'livemode')::boolean, e.type, e.data, e.stream_id, e.created_at
     FROM ledger.events e WHERE e.id = ANY($1::text[])`,
    [events.map((event) => event.id)],
  );
}
