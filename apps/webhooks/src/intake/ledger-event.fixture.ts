import { randomUUID } from 'node:crypto';
import { ledgerEventSubject, type MerchantEventType, type StoredEvent, WEBHOOKS_DELIVERY_CONSUMER } from '@pp/contracts';
import { ensureStream, ledgerEventsPlace, subjectPrefix } from '@pp/platform';
import type { ConsumerInfo, NatsConnection } from 'nats';

/**
 * For tests: publishes merchant events to JetStream exactly as the ledger's
 * EventPublisher does (its stream and subjects, StoredEvent JSON, Nats-Msg-Id
 * = event id), so the webhooks service can be tested without the ledger.
 */
export class LedgerEventFixture {
  private position = 0;

  constructor(
    private readonly nc: NatsConnection,
    private readonly namespace: string,
  ) {}

  async createStream(): Promise<void> {
    // As the migrate step lays it out (jetstream-layout.ts), republication included.
    await ensureStream(this.nc, { ...ledgerEventsPlace(this.namespace), duplicateWindowMs: 60 * 60 * 1000, maxAgeMs: 24 * 60 * 60 * 1000, replicas: 1 });
  }

  event(
    merchantId: string,
    type: MerchantEventType,
    overrides: { livemode?: boolean; data?: Record<string, unknown>; trace?: Record<string, string>; correlationId?: string } = {},
  ): StoredEvent {
    const sessionId = randomUUID().replace(/-/g, '').slice(0, 24);
    this.position += 1;
    return {
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      position: this.position,
      stream_id: `checkout_session-${sessionId}`,
      version: 2,
      type,
      schema_version: 1,
      data: {
        reference: `order-${this.position}`,
        amount: 1250,
        status: 'CONFIRMED',
        metadata: { order: String(this.position) },
        session_id: sessionId,
        ...overrides.data,
      },
      metadata: {
        merchant_id: merchantId,
        livemode: overrides.livemode ?? false,
        ...(overrides.correlationId ? { correlation_id: overrides.correlationId } : {}),
        ...(overrides.trace ? { trace: overrides.trace } : {}),
      },
      created_at: new Date().toISOString(),
    };
  }

  /** The webhooks' durable consumer as JetStream sees it (what it has delivered and awaits an answer for). */
  async webhooksConsumer(): Promise<ConsumerInfo> {
    return (await this.nc.jetstreamManager()).consumers.info(ledgerEventsPlace(this.namespace).name, WEBHOOKS_DELIVERY_CONSUMER);
  }

  async publish(event: StoredEvent): Promise<void> {
    await this.nc
      .jetstream()
      .publish(subjectPrefix(this.namespace) + ledgerEventSubject(event.type), JSON.stringify(event), { msgID: event.id });
  }
}
