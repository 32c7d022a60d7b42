import { type CheckoutSessionEvent, CheckoutSessionEventType } from '@pp/contracts';

/** A `session.created` fact for handler specs over the in-memory event store: a PENDING session of `scope` created at `createdAt`. */
export function checkoutSessionCreated(
  scope: { merchant_id: string; livemode: boolean },
  createdAt: Date,
  { sessionId = 'cs1', ttlMs = 1800_000 }: { sessionId?: string; ttlMs?: number } = {},
): CheckoutSessionEvent {
  return {
    type: CheckoutSessionEventType.Created,
    schema_version: 1,
    data: {
      session_id: sessionId,
      ...scope,
      amount: 2500,
      currency: 'CAD',
      reference: 'order-1',
      memo: 'PP-7K3M9Q',
      client_secret: 'secret',
      success_url: 'https://shop.example/ok',
      cancel_url: 'https://shop.example/cancel',
      metadata: null,
      created_at: createdAt.toISOString(),
      expires_at: new Date(createdAt.getTime() + ttlMs).toISOString(),
    },
  };
}
