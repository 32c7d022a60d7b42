import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DomainError, ErrorCode, INGEST_RAW_EMAIL_CONSUMER, ingestRawEmailStreamName } from '@pp/contracts';
import {
  checkStream,
  CONFIG,
  consumeConcurrently,
  DurableReader,
  HealthService,
  ingestRawEmailPlace,
  JsonLogger,
  keptOrNewRequestId,
  NATS_CONNECTION,
  REQUEST_ID_HEADER,
  requestContext,
  ServiceMetrics,
  watchConsumerLag,
  watchStreamFill,
} from '@pp/platform';
import { AckPolicy, DeliverPolicy, type JsMsg, type NatsConnection, nanos } from 'nats';
import type { IngestConfig } from '../ingest.config';
import { EmailProcessor } from '../processing/email-processor';
import { EmailIntake } from './email-intake.service';

/** Durable consumer name; replicas share it, so each message is stored by one of them. Do not rename. */
/** Named in the bus access registry, which keeps every other identity off it. */
const CONSUMER = INGEST_RAW_EMAIL_CONSUMER;
/** The name the reader's check has in the service's health answer (and in /readyz's `dependencies down: …`). */
export const READER_HEALTH_CHECK = 'raw-emails';
const RETRY_DELAY_MS = 5_000;
/**
 * Messages stored and processed at once by one replica. One at a time, the
 * bench's stack took 66-97 a second (each waits on its DKIM and parsing
 * workers, three statements and two bus requests), and a notice whose
 * hand-off waited on a slow service held back every message behind it. A
 * message stays in hand until its hand-off ends, so this is the depth of the
 * whole pipeline behind the ingest (sessions, ledger, Postgres): with 64 the
 * stages took turns and two cores stood 13 % idle under a backlog; with 256,
 * 544-576 notices a second against 433-436 (docs/PERFORMANCE.md).
 */
const IN_FLIGHT = 256;
/**
 * Once IN_FLIGHT are in hand, more are taken when only this many remain:
 * then all at once, so that they are stored, judged and looked up together
 * (a statement or request for the burst, not one per message).
 */
const RESUME_AT = 192;
/** Messages pulled ahead of those in hand (64 measured 538 msg/s against 563-592 with 128 or 256). */
const PREFETCH = 128;
/**
 * Raw bytes in hand, at most: a notice is tens of KB, but a message may be up
 * to the NATS maximum payload, and IN_FLIGHT of those would not fit the
 * service's memory (with the PREFETCH buffered, at most 192 MB at 1 MB each).
 */
const IN_FLIGHT_BYTES = 64 * 1024 * 1024;

/**
 * The mail pipeline's way in: raw RFC 822 bytes on JetStream
 * `<namespace>.ingest.email.raw`. A message is acknowledged once stored;
 * processing follows, for up to IN_FLIGHT messages at once (each e-mail is
 * independent: copies and repeats are settled by the unique keys of the
 * store and the outcomes). Messages taken together are stored, judged and
 * routed together (EmailIntake, EmailProcessor). Input that is not a
 * message is terminated, never retried. Should the stream or its consumer be
 * deleted while the service runs, the reader binds again once the migrate
 * step has made them (DurableReader), and the health answer shows the gap.
 */
@Injectable()
export class RawEmailConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly reader: DurableReader;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(CONFIG) config: IngestConfig,
    private readonly intake: EmailIntake,
    private readonly processor: EmailProcessor,
    private readonly logger: JsonLogger,
    metrics: ServiceMetrics,
    health: HealthService,
  ) {
    watchConsumerLag(metrics, nc, { namespace: config.PP_NAMESPACE, stream: ingestRawEmailStreamName(''), consumer: CONSUMER });
    watchStreamFill(metrics, nc, { name: ingestRawEmailStreamName(config.PP_NAMESPACE), label: ingestRawEmailStreamName('') });
    const place = ingestRawEmailPlace(config.PP_NAMESPACE);
    const limits = { limit: IN_FLIGHT, resumeAt: RESUME_AT, maxBytes: IN_FLIGHT_BYTES };
    this.reader = new DurableReader(
      'raw e-mails',
      {
        open: async () => {
          // The migrate step makes the stream, bounded (jetstream-layout.ts); the ingest only consumes it.
          const jsm = await checkStream(this.nc, place);
          await jsm.consumers.add(place.name, {
            durable_name: CONSUMER,
            ack_policy: AckPolicy.Explicit,
            deliver_policy: DeliverPolicy.All,
            filter_subject: place.subjects[0],
            ack_wait: nanos(60_000),
          });
          const consumer = await this.nc.jetstream().consumers.get(place.name, CONSUMER);
          // Should the stream or the consumer go away, the round ends and the reader binds again.
          return consumer.consume({ max_messages: PREFETCH, abort_on_missing_resource: true });
        },
        // The mail relay is outside the platform: its trace context is kept only as a parent's ids (untrustedParent).
        read: (messages) => consumeConcurrently(messages, limits, (message) => this.take(message), { untrustedPublisher: true }),
      },
      logger,
      { stream: place.name, consumer: CONSUMER },
    );
    health.register(READER_HEALTH_CHECK, this.reader.health.check);
  }

  /**
   * Starts reading, and waits for the first round's outcome. A stream missing
   * or changed (checkStream says who makes it) does not stop the start: the
   * service answers not ready, naming the reader, and reads once the migrate
   * step has made it, as a running replica does when it goes.
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.reader.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.reader.stop();
  }

  /**
   * Each message under a request id of its own: the one the mail pipeline sent, when well formed, else a new one. Its
   * hand-off to payments carries it on, so the payment's events and webhook, and every line logged about the e-mail,
   * name it (the posted path has the request's).
   */
  private take(message: JsMsg): Promise<void> {
    const requestId = keptOrNewRequestId(message.headers?.get(REQUEST_ID_HEADER));
    return requestContext.run({ requestId }, () => this.store(message));
  }

  private async store(message: JsMsg): Promise<void> {
    let receipt;
    try {
      receipt = await this.intake.receive(Buffer.from(message.data), 'jetstream');
    } catch (error) {
      if (error instanceof DomainError && error.code === ErrorCode.ValidationFailed) {
        this.logger.warn(`refused JetStream message ${message.seq}: ${error.message}`);
        message.term();
      } else {
        this.logger.error(`storing JetStream message ${message.seq} failed; redelivering`, error instanceof Error ? error : undefined);
        message.nak(RETRY_DELAY_MS);
      }
      return;
    }
    message.ack();
    if (receipt.stored) await this.processor.processSafely(receipt.stored);
  }
}
