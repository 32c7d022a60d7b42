import type { MerchantEventDataV1, StoredEvent, WebhookEventBody } from '@pp/contracts';
import { webhookEventBody } from '@pp/sdk';

/**
 * The body sent for a merchant-visible event (PRODUCT-RULES §6), serialised once: the
 * stored text is what every attempt sends and signs. Shaped by the SDK, which `pp-checkout listen`
 * forwards with too, so both send the same fields.
 */
export function webhookBody(event: StoredEvent<Partial<MerchantEventDataV1>>): string {
  const body: WebhookEventBody = webhookEventBody({ id: event.id, type: event.type, created_at: event.created_at, livemode: event.metadata.livemode, data: event.data });
  return JSON.stringify(body);
}
