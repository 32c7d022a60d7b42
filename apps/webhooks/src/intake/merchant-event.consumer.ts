import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { isMerchantEventType, LEDGER_EVENTS_STREAM, MERCHANT_EVENTS_FILTER, type StoredEvent, WEBHOOKS_DELIVERY_CONSUMER } from '@pp/contracts';
import { context } from '@opentelemetry/api';
import {
  Batcher,
  CONFIG,
  consumeConcurrently,
  DurableReader,
  HealthService,
  JsonLogger,
  keptOrNewRequestId,
  NATS_CONNECTION,
  requestContext,
  ServiceMetrics,
  streamName,
  subjectPrefix,
  watchConsumerLag,
} from '@pp/platform';
import { AckPolicy, type ConsumerConfig, DeliverPolicy, type JsMsg, nanos, type NatsConnection } from 'nats';
import { withinOrigin } from '../delivery/attempt-origin';
import { DeliveryAttemptJob } from '../delivery/delivery-attempt.job';
import { DeliveryQueue } from '../delivery/delivery.queue';
import { DeliveryRepository, type DueDelivery } from '../delivery/delivery.repository';
import { firstAttemptDelayMs } from '../delivery/retry.decider';
import { retryScheduleMs, type WebhooksConfig } from '../webhooks.config';
import { type Intake, recordIntakes } from './event-intake';
import { webhookBody } from './webhook-body';

/** Durable consumer name on the ledger's stream. Do not rename: the consumer's position is kept under it. */
/** Named in the bus access registry, which keeps every other identity off it. */
export const WEBHOOKS_CONSUMER = WEBHOOKS_DELIVERY_CONSUMER;
/** The name the reader's check has in the service's health answer (and in /readyz's `dependencies down: …`). */
export const READER_HEALTH_CHECK = 'merchant-events';
/**
 * A message is delivered until its deliveries are recorded, however long that
 * takes (max_deliver -1): a limit would drop for good the events of a Postgres
 * outage longer than the backoff's sum, and nothing else reads them again.
 * From this many deliveries on, each further failure is logged as an error.
 */
export const LOUD_AFTER_DELIVERIES = 30;
/** JetStream's "no limit" on deliveries. */
const UNLIMITED = -1;
const ACK_WAIT_MS = 30_000;
/** Messages being handled at once; those that arrive while a batch is written are recorded together in the next. */
const IN_FLIGHT = 32;

/**
 * Reads the ledger's merchant-visible events from JetStream and records the
 * deliveries each one needs before acknowledging it (the events that arrive
 * together in one statement); then starts their first attempts (or queues
 * them when this replica is busy). Before recording an event it waits, for at
 * most WEBHOOK_BACKLOG_WAIT_MS, until half the replica's places for attempts
 * are free, so a backlog is taken as fast as its attempts end rather than
 * queued. It never calls back into the flow that produced the event.
 */
@Injectable()
export class MerchantEventConsumer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly scheduleMs: number[];
  /** One statement for the events that arrive together (docs/PERFORMANCE.md). */
  private readonly intake = new Batcher<Intake>((batch) => this.recordAll(batch));
  private readonly reader: DurableReader;

  constructor(
    @Inject(CONFIG) private readonly config: WebhooksConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly deliveries: DeliveryRepository,
    private readonly queue: DeliveryQueue,
    private readonly attempts: DeliveryAttemptJob,
    private readonly logger: JsonLogger,
    metrics: ServiceMetrics,
    health: HealthService,
  ) {
    this.scheduleMs = retryScheduleMs(config);
    watchConsumerLag(metrics, nc, { namespace: config.PP_NAMESPACE, stream: LEDGER_EVENTS_STREAM, consumer: WEBHOOKS_CONSUMER });
    const stream = streamName(config.PP_NAMESPACE, LEDGER_EVENTS_STREAM);
    this.reader = new DurableReader(
      'merchant events',
      {
        open: async () => {
          await this.bind(stream);
          const consumer = await this.nc.jetstream().consumers.get(stream, WEBHOOKS_CONSUMER);
          // Should the stream or the consumer go away, the round ends and the reader binds again: without the abort,
          // consume() would wait, reading nothing, for a consumer only bind() creates.
          return consumer.consume({ max_messages: IN_FLIGHT * 4, abort_on_missing_resource: true });
        },
        read: (messages) => consumeConcurrently(messages, { limit: IN_FLIGHT }, (msg) => this.handle(msg)),
      },
      logger,
      { stream, consumer: WEBHOOKS_CONSUMER },
    );
    health.register(READER_HEALTH_CHECK, this.reader.health.check);
  }

  /**
   * Starts reading, and waits for the first round's outcome (a few
   * milliseconds when the stream is there): the service answers health
   * requests only after this, so a normal start never shows down. A failed
   * round does not hold the start: the reader goes on trying (the migrate
   * step creates the stream; until it has, it waits for it).
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.reader.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.reader.stop();
  }

  /** Creates the durable consumer, or brings its settings up to date (idempotent; replicas share it). */
  private async bind(stream: string): Promise<void> {
    const jsm = await this.nc.jetstreamManager();
    const config: Partial<ConsumerConfig> = {
      durable_name: WEBHOOKS_CONSUMER,
      filter_subject: subjectPrefix(this.config.PP_NAMESPACE) + MERCHANT_EVENTS_FILTER,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ACK_WAIT_MS),
      max_deliver: UNLIMITED,
      max_ack_pending: 1000,
    };
    const exists = await jsm.consumers.info(stream, WEBHOOKS_CONSUMER).then(
      () => true,
      () => false,
    );
    if (exists) await jsm.consumers.update(stream, WEBHOOKS_CONSUMER, config);
    else await jsm.consumers.add(stream, config);
  }

  /**
   * Handles one message under the id of the request that caused its event (its correlation_id; a new one when it
   * has none fit to keep), which its attempts carry on (AttemptOrigin), so every line its delivery logs names it.
   * A message no redelivery can make whole is terminated without a reason: the reason (`+TERM <reason>`) is
   * understood only from NATS 2.10 on, and an older server ignores the whole acknowledgement, redelivering for ever.
   */
  private async handle(msg: JsMsg): Promise<void> {
    let event: StoredEvent;
    try {
      event = JSON.parse(Buffer.from(msg.data).toString('utf8'));
    } catch {
      this.logger.error('dropping a ledger message that is not JSON', { subject: msg.subject, seq: msg.seq });
      msg.term();
      return;
    }
    // Read with care: the message is not known to be a ledger event yet.
    const requestId = keptOrNewRequestId(event.metadata?.correlation_id);
    await requestContext.run({ requestId }, () => this.take(msg, event, requestId));
  }

  /** The work of one parsed message, in its request's context: records its event's deliveries, then settles the message. */
  private async take(msg: JsMsg, event: StoredEvent, requestId: string): Promise<void> {
    if (!isMerchantEventType(event.type)) {
      msg.ack();
      return;
    }
    let body: string;
    try {
      body = webhookBody(event);
    } catch (error) {
      // A merchant event without its amount or reference: no redelivery can make it whole, and a body of 0 would be booked.
      this.logger.error('dropping a merchant event that cannot be delivered', { event_id: event.id, type: event.type, error: String(error) });
      msg.term();
      return;
    }
    const intake: Intake = {
      toRecord: {
        event: {
          id: event.id,
          merchant_id: event.metadata.merchant_id,
          livemode: event.metadata.livemode,
          type: event.type,
          body,
          trace: event.metadata.trace ?? null,
          created_at: event.created_at,
        },
        firstAttemptAt: new Date(Date.now() + firstAttemptDelayMs({ scheduleMs: this.scheduleMs })),
      },
      queuedBy: context.active(),
      requestId,
    };
    await this.attempts.whenRoom();
    // recordIntakes sets each intake's own error; anything else that fails the batch naks it too (recording again adds nothing).
    await this.intake.add(intake).catch((error: unknown) => (intake.error ??= error instanceof Error ? error : new Error(String(error))));
    if (!intake.error) {
      msg.ack();
      return;
    }
    const deliveries = msg.info.deliveryCount;
    if (deliveries >= LOUD_AFTER_DELIVERIES) {
      this.logger.error('still cannot record the deliveries of a merchant event; retrying every minute', { event_id: event.id, deliveries, error: intake.error.message });
    } else {
      this.logger.warn('could not record deliveries; will retry', { event_id: event.id, error: intake.error.message });
    }
    msg.nak(Math.min(60_000, 500 * 2 ** Math.min(deliveries, 7)));
  }

  /**
   * Records the events that arrived together in one statement, which also
   * claims their first attempts due now while this replica has room, and
   * starts those; then starts or queues the others (those a redelivered
   * message recorded before, those past the room or not due yet). Recorded
   * is what counts: should queuing fail, or this process die mid-attempt, the
   * sweeper queues them from Postgres.
   */
  private async recordAll(batch: Intake[]): Promise<void> {
    // One statement records the whole batch: traced and logged under its first event's consumption (the Batcher runs
    // it in no caller's context), so a payment's trace shows where its deliveries were recorded.
    await withinOrigin(batch[0], () =>
      recordIntakes(batch, (intakes) =>
        this.attempts.recordAndStart(intakes, (claim) => this.deliveries.recordEvents(intakes.map((intake) => intake.toRecord), claim)),
      ),
    );
    const recorded = batch.filter((intake) => intake.due);
    const now = Date.now();
    const isDueNow = (delivery: DueDelivery) => new Date(delivery.next_attempt_at).getTime() <= now;
    const origin = ({ queuedBy, requestId }: Intake) => ({ queuedBy, requestId });
    const left = this.attempts.startNow(recorded.map((intake) => ({ ...origin(intake), due: intake.due!.filter(isDueNow) })));
    const later = recorded.map((intake) => ({ ...origin(intake), due: intake.due!.filter((delivery) => !isDueNow(delivery)) }));
    await Promise.all(
      [...left, ...later]
        .filter((group) => group.due.length > 0)
        .map((group) => withinOrigin(group, () => this.queue.enqueueOrLeaveToSweeper(group.due))),
    );
  }
}
