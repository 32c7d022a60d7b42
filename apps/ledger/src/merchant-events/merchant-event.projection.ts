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

  async apply(db: ClientBase, event: StoredEvent): Promise<void> {
    await db.query(
      `INSERT INTO ledger.merchant_events (id, position, merchant_id, livemode, type, data, stream_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        event.id,
        event.position,
        event.metadata.merchant_id,
        event.metadata.livemode,
        event.type,
        JSON.stringify(event.data),
        event.stream_id,
        event.created_at,
      ],
    );
  },
};
