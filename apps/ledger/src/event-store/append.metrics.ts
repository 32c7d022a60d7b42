import { Injectable } from '@nestjs/common';
import { type AppendStreamsReply, CheckoutSessionEventType, MerchantEventType, PaymentEventType, RefundEventType } from '@pp/contracts';
import { LEDGER_APPEND_DURATION, LEDGER_BATCH_SIZE, LEDGER_EVENTS, ServiceMetrics } from '@pp/platform';
import type { Counter, Histogram } from 'prom-client';

/** Event types the label may take; anything else counts as `other`, so no caller can add series. */
const KNOWN_TYPES: ReadonlySet<string> = new Set<string>([
  ...Object.values(CheckoutSessionEventType),
  ...Object.values(PaymentEventType),
  ...Object.values(RefundEventType),
  ...Object.values(MerchantEventType),
]);

/**
 * What each group commit did: how many appends it took, how long each waited
 * from arrival to commit, and the events it added by type (sessions created,
 * completed and expired, payments, refund stages: counted once, here, where
 * they become facts; replays add nothing).
 */
@Injectable()
export class AppendMetrics {
  private readonly duration: Histogram;
  private readonly batchSize: Histogram;
  private readonly events: Counter<'type'>;
  private readonly byType = new Map<string, Counter.Internal>();

  constructor(metrics: ServiceMetrics) {
    this.duration = metrics.histogram(LEDGER_APPEND_DURATION);
    this.batchSize = metrics.histogram(LEDGER_BATCH_SIZE);
    this.events = metrics.counter(LEDGER_EVENTS);
  }

  /** `arrivedAt` are performance.now() readings; `replies` the committed appends (failed ones are left out). */
  committed(arrivedAt: readonly number[], replies: readonly AppendStreamsReply[]): void {
    const now = performance.now();
    this.batchSize.observe(arrivedAt.length);
    for (const at of arrivedAt) this.duration.observe((now - at) / 1000);
    for (const reply of replies) {
      if (reply.replayed) continue;
      for (const stream of reply.streams) for (const event of stream.events) this.countEvent(event.type);
    }
  }

  private countEvent(type: string): void {
    const label = KNOWN_TYPES.has(type) ? type : 'other';
    let series = this.byType.get(label);
    if (!series) {
      series = this.events.labels(label);
      this.byType.set(label, series);
    }
    series.inc();
  }
}
