import type { MerchantEventDataV1, StoredEvent, WebhookEventBody } from '@pp/contracts';

/**
 * The body sent for a merchant-visible event (PRODUCT-RULES §6), serialised once: the
 * stored text is what every attempt sends and signs.
 */
export function webhookBody(event: StoredEvent<Partial<MerchantEventDataV1>>): string {
  const { reference, amount, status, metadata, session_id, payment_id } = event.data;
  const body: WebhookEventBody = {
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    livemode: event.metadata.livemode,
    data: {
      reference: String(reference ?? ''),
      amount: Number(amount ?? 0),
      status: String(status ?? ''),
      metadata: metadata ?? null,
      ...(typeof session_id === 'string' ? { session_id } : {}),
      ...(typeof payment_id === 'string' ? { payment_id } : {}),
    },
  };
  return JSON.stringify(body);
}
