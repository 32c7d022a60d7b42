import type { ConsumerMessages } from 'nats';
import type { JsonLogger } from '../logging/json-logger';
import { ReaderHealth } from './reader-health';

/** How long a reader waits after a failed round before it binds again. */
export const RETRY_BIND_MS = 1000;

export interface DurableReaderRound {
  /** Binds the durable consumer (creates it or brings its settings up to date) and starts consuming it. */
  open(): Promise<ConsumerMessages>;
  /** Handles the messages until they end: closed by stop(), or aborted because the stream or consumer went away. */
  read(messages: ConsumerMessages): Promise<void>;
}

/**
 * A durable JetStream consumer read in rounds: bind, consume until the
 * messages end, and bind again a second later, until stopped. Should the
 * stream or the consumer be deleted while the service runs (an operator's
 * mistake, a stream re-created by the migrate step), the round ends (the
 * round's consume must abort on a missing resource) and the next one binds
 * anew, so reading resumes by itself; meanwhile `health` counts the failed
 * rounds for the service's health answer.
 */
export class DurableReader {
  readonly health: ReaderHealth;
  private messages?: ConsumerMessages;
  private stopped = false;
  private loop?: Promise<void>;

  constructor(
    /** What is read, as the log and the health check say it: "merchant events". */
    private readonly what: string,
    private readonly round: DurableReaderRound,
    private readonly logger: Pick<JsonLogger, 'warn' | 'info'>,
    /** Said in every log line of the reader: the stream and consumer. */
    private readonly fields: Record<string, unknown>,
    private readonly retryMs = RETRY_BIND_MS,
  ) {
    this.health = new ReaderHealth(logger, what);
  }

  /** Starts reading; resolves at the first round's outcome (a failed round does not hold the start: reading goes on trying). */
  start(): Promise<void> {
    this.loop = this.run();
    return this.health.firstRound;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.messages?.close();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const messages = await this.round.open();
        this.messages = messages;
        this.health.reading(this.fields);
        this.logger.info(`consuming ${this.what}`, this.fields);
        // A stop that came while this was binding found nothing to close, and would wait for this loop for ever.
        // Not awaited: close() resolves once the messages are read to their end, which read() then does at once.
        if (this.stopped) void messages.close();
        await this.round.read(messages);
      } catch (error) {
        this.health.failed(error, this.fields);
      }
      if (!this.stopped) await new Promise((resolve) => setTimeout(resolve, this.retryMs));
    }
  }
}
