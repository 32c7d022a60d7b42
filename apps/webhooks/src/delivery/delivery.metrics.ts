import { Injectable } from '@nestjs/common';
import { WebhookDeliveryStatus } from '@pp/contracts';
import { ServiceMetrics, WEBHOOK_ATTEMPT_DURATION, WEBHOOK_ATTEMPTS, WEBHOOK_ATTEMPTS_HELD_BACK, WEBHOOK_ENDPOINTS_DISABLED } from '@pp/platform';
import type { Counter, Histogram } from 'prom-client';
import type { AttemptDecision } from './retry.decider';

const OUTCOMES: Record<AttemptDecision['status'], string> = {
  [WebhookDeliveryStatus.Success]: 'success',
  [WebhookDeliveryStatus.Failed]: 'retry',
  [WebhookDeliveryStatus.Exhausted]: 'exhausted',
};

/** Every response label: a status class, none (no HTTP answer) or not_sent (see notSent). */
const RESPONSES = ['1xx', '2xx', '3xx', '4xx', '5xx', 'none', 'not_sent'];

/** The response label: the status class, or none when no HTTP answer came (refused, unreachable, timed out). */
export const responseClass = (httpStatus: number | null): string =>
  httpStatus !== null && httpStatus >= 100 && httpStatus < 600 ? `${Math.floor(httpStatus / 100)}xx` : 'none';

/** Attempts by outcome and response class, their duration, those held back, and endpoints disabled. No endpoint or event ids. */
@Injectable()
export class DeliveryMetrics {
  private readonly attempts: Counter<'outcome' | 'response'>;
  private readonly duration: Histogram;
  private readonly disabled: Counter<'reason'>;
  private readonly heldBack: Counter;

  constructor(metrics: ServiceMetrics) {
    // At 0 from the start, so that the first exhausted delivery of a process raises WebhookDeliveriesExhausted.
    this.attempts = metrics.counter(WEBHOOK_ATTEMPTS, { startAtZero: { outcome: Object.values(OUTCOMES), response: RESPONSES } });
    this.duration = metrics.histogram(WEBHOOK_ATTEMPT_DURATION);
    this.disabled = metrics.counter(WEBHOOK_ENDPOINTS_DISABLED);
    this.heldBack = metrics.counter(WEBHOOK_ATTEMPTS_HELD_BACK);
  }

  /** An attempt made without being sent (held back too long for a slow endpoint): counted with response not_sent, and no duration. */
  notSent(decision: AttemptDecision): void {
    this.attempts.inc({ outcome: OUTCOMES[decision.status], response: 'not_sent' });
  }

  /** A queued attempt put back unclaimed: its endpoint is slow and holds its share of places. */
  held(): void {
    this.heldBack.inc();
  }

  /** One attempt made, what it led to, and how long it took (performance.now() difference in ms). */
  attempted(decision: AttemptDecision, httpStatus: number | null, elapsedMs: number): void {
    this.attempts.inc({ outcome: OUTCOMES[decision.status], response: responseClass(httpStatus) });
    this.duration.observe(elapsedMs / 1000);
  }

  /**
   * An endpoint disabled by the outcome of an attempt that got `httpStatus`: once per endpoint the outcome's write
   * disabled (DeliveryRepository.completeAll), not per attempt that asked for it.
   */
  endpointDisabled(httpStatus: number | null): void {
    this.disabled.inc({ reason: httpStatus === 410 ? 'gone' : 'failing' });
  }
}
