import { randomUUID } from 'node:crypto';
import type { CheckoutClient } from '../client';
import type { RequestOptions } from '../http/transport';
import type { EventType, SimulatedOutcome } from '../types';
import type { Output } from './output';

export interface TriggerOverrides {
  /** An existing PENDING test session to make the event happen on, instead of a new one (amount, reference and metadata are then its own). */
  sessionId?: string;
  amount?: number;
  reference?: string;
  metadata?: Record<string, string>;
}

/** What `trigger` can make happen, and the simulated outcome behind it (none: the session expires instead). */
const OUTCOME_OF: Record<EventType, SimulatedOutcome | 'expire'> = {
  'payment.confirmed': 'confirmed',
  'payment.failed': 'failed',
  'payment.pending_review': 'requires_manual_review',
  'payment.refunded': 'confirmed',
  'checkout.session.completed': 'confirmed',
  'checkout.session.expired': 'expire',
};
export const TRIGGERABLE = Object.keys(OUTCOME_OF) as EventType[];

export interface TriggerResult {
  event_type: EventType;
  session_id: string;
  payment_id?: string;
  refund_id?: string;
  reference: string;
  amount: number;
}

/**
 * Creates a test session and pays it with the outcome that makes `type`
 * happen (then refunds it, for payment.refunded), or expires it at once
 * (checkout.session.expired). Test keys only. `options` (the CLI's signal)
 * go with every request.
 */
export async function trigger(client: CheckoutClient, type: EventType, overrides: TriggerOverrides, output: Output, options: RequestOptions = {}): Promise<TriggerResult> {
  const outcome = OUTCOME_OF[type];
  const session = overrides.sessionId ? await client.checkoutSessions.retrieve(overrides.sessionId, options) : await createSession(client, overrides, output, options);
  const amount = session.amount;
  if (outcome === 'expire') {
    output.progress(`Expiring ${session.id}...`);
    await client.sandbox.expireSession({ sessionId: session.id }, options);
    return { event_type: type, session_id: session.id, reference: session.reference, amount };
  }
  output.progress(`Simulating a ${outcome} payment of ${session.id}...`);
  const { transaction } = await client.sandbox.simulatePayment({ sessionId: session.id, outcome }, options);
  const result: TriggerResult = { event_type: type, session_id: session.id, payment_id: transaction.id, reference: session.reference, amount };
  if (type === 'payment.refunded') {
    output.progress(`Refunding ${transaction.id}...`);
    result.refund_id = (await client.refunds.create({ payment_id: transaction.id, reason: 'cli trigger' }, options)).id;
  }
  return result;
}

async function createSession(client: CheckoutClient, overrides: TriggerOverrides, output: Output, options: RequestOptions) {
  const amount = overrides.amount ?? 2500;
  output.progress(`Creating a test checkout session (${amount} cents)...`);
  const created = await client.checkoutSessions.create({
    amount,
    currency: 'cad',
    reference: overrides.reference ?? `cli-${randomUUID().slice(0, 8)}`,
    success_url: 'http://localhost/success',
    cancel_url: 'http://localhost/cancel',
    ...(overrides.metadata ? { metadata: overrides.metadata } : {}),
  }, options);
  return client.checkoutSessions.retrieve(created.id, options);
}
