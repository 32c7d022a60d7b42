import type { WebhookEvent } from '../types';

/** A merchant-visible event as the service keeps it, or as the event stream and GET /v1/events show it. */
export interface EventToDeliver {
  id: string;
  type: string;
  created_at: string;
  livemode: boolean;
  data: Record<string, unknown>;
}

/**
 * The body of a webhook delivery for `event` (PRODUCT-RULES §6): the data
 * fields merchants are promised and nothing else (an internal field such as
 * review_reasons stays out), session_id and payment_id left out when the
 * event has none. The webhooks service sends it and `pp-checkout listen`
 * forwards it, so a receiver tried with the CLI meets what deliveries carry.
 *
 * Every merchant-visible event carries its `reference` (a string, '' for a
 * payment with neither a session nor a transfer reference) and its `amount`
 * (integer cents; MerchantEventDataV1 in libs/contracts, and both producers,
 * the session and payment deciders, always set them). An event without them
 * is not one this builder knows: it throws a TypeError rather than deliver
 * an amount of 0, which a receiver would book as a payment of nothing.
 */
export function webhookEventBody(event: EventToDeliver): WebhookEvent {
  const { reference, amount, status, metadata, session_id, payment_id } = event.data;
  if (typeof amount !== 'number' || !Number.isFinite(amount)) {
    throw new TypeError(`webhookEventBody: event ${event.id} (${event.type}) has no amount; every merchant event carries one`);
  }
  if (typeof reference !== 'string') {
    throw new TypeError(`webhookEventBody: event ${event.id} (${event.type}) has no reference; every merchant event carries one`);
  }
  return {
    id: event.id,
    type: event.type,
    created_at: event.created_at,
    livemode: event.livemode,
    data: {
      reference,
      amount,
      status: String(status ?? ''),
      metadata: (metadata ?? null) as Record<string, unknown> | null,
      ...(typeof session_id === 'string' ? { session_id } : {}),
      ...(typeof payment_id === 'string' ? { payment_id } : {}),
    },
  } as WebhookEvent;
}
