import { Injectable } from '@nestjs/common';
import { type AppendReply, checkoutSessionStreamId, type IdempotencyToken, type MerchantScope } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { type CheckoutSessionState, type DecidedEvent, fold } from './checkout-session.decider';

/** A session's stream in the ledger: loaded and appended to over the bus. */
@Injectable()
export class CheckoutSessionRepository {
  constructor(private readonly bus: BusClient) {}

  async load(sessionId: string): Promise<{ state: CheckoutSessionState; version: number }> {
    const stream = await this.bus.request('ledger.stream.read.v1', { stream_id: checkoutSessionStreamId(sessionId) });
    return { state: fold(stream.events), version: stream.version };
  }

  append(
    sessionId: string,
    expectedVersion: number,
    events: DecidedEvent[],
    scope: MerchantScope,
    options: { idempotency?: IdempotencyToken; causationId?: string } = {},
  ): Promise<AppendReply> {
    return this.bus.request('ledger.append.v1', {
      stream_id: checkoutSessionStreamId(sessionId),
      expected_version: expectedVersion,
      events,
      metadata: {
        merchant_id: scope.merchant_id,
        livemode: scope.livemode,
        ...(options.causationId ? { causation_id: options.causationId } : {}),
      },
      ...(options.idempotency ? { idempotency: options.idempotency } : {}),
    });
  }
}
