import { ledgerEventSubject, type StoredEvent } from '@pp/contracts';
import { newId } from '@pp/kernel';
import type { NatsConnection } from 'nats';

/**
 * Publishes a payment.confirmed onto a test stack's ledger stream as the ledger's publisher would, without storing it
 * in the ledger (`extra` is added to its data): what the gateway's live event feed reads. Answers the event's id.
 */
export async function publishPaymentConfirmed(
  nats: NatsConnection,
  namespace: string,
  scope: { merchantId: string; livemode: boolean },
  reference: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const id = newId('event');
  const event: StoredEvent = {
    id,
    position: 0,
    stream_id: `payment-${id}`,
    version: 1,
    type: 'payment.confirmed',
    schema_version: 1,
    data: { reference, amount: 1200, status: 'CONFIRMED', metadata: null, ...extra },
    metadata: { merchant_id: scope.merchantId, livemode: scope.livemode },
    created_at: new Date().toISOString(),
  };
  await nats.jetstream().publish(`${namespace}.${ledgerEventSubject(event.type)}`, JSON.stringify(event));
  return id;
}
