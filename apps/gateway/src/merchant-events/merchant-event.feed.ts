import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { LEDGER_EVENTS_STREAM, MERCHANT_EVENTS_FILTER, type MerchantEventView, type MerchantScope, type StoredEvent } from '@pp/contracts';
import { CONFIG, FailureStreak, JsonLogger, NATS_CONNECTION, streamName, subjectPrefix } from '@pp/platform';
import { consumerOpts, type JetStreamSubscription, type NatsConnection } from 'nats';
import type { GatewayConfig } from '../gateway.config';
import { merchantEventView } from './merchant-event.view';

/** What a follower hears: a new event of its merchant and mode, or that the feed (re)started and may have missed some. */
export type FeedSignal = { kind: 'event'; event: MerchantEventView } | { kind: 'resync' };
export type FeedListener = (signal: FeedSignal) => void;

/** How long to wait before following again after the stream could not be read (the migrate step creates it). */
const RETRY_FOLLOW_MS = 1000;

const scopeKey = (scope: MerchantScope) => `${scope.merchant_id}:${scope.livemode ? 'live' : 'test'}`;

/**
 * New merchant-visible events, live from the ledger's JetStream stream: one
 * ordered consumer per gateway process while it serves at least one event
 * stream (ephemeral, pushed to this process's inbox, recreated by the client
 * after a gap), handed to the event streams of the event's merchant and mode. It is a wake-up feed, not the record:
 * each time it (re)starts its listeners hear `resync` and read the ledger's
 * durable merchant_events log, so an event published while the feed was down
 * is still sent (docs/ARCHITECTURE.md "Event stream").
 */
@Injectable()
export class MerchantEventFeed implements OnApplicationShutdown {
  private readonly listeners = new Map<string, Set<FeedListener>>();
  private subscription?: JetStreamSubscription;
  private stopped = false;
  private loop?: Promise<void>;

  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly logger: JsonLogger,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.subscription?.unsubscribe();
    await this.loop;
  }

  /** Hears the events of one merchant and mode until the returned function is called; the first listener starts the following. */
  listen(scope: MerchantScope, listener: FeedListener): () => void {
    const key = scopeKey(scope);
    const set = this.listeners.get(key) ?? new Set<FeedListener>();
    set.add(listener);
    this.listeners.set(key, set);
    this.startFollowing();
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
      // Nobody listens: a gateway without open streams receives no events at all.
      if (this.listeners.size === 0) this.subscription?.unsubscribe();
    };
  }

  private startFollowing(): void {
    this.loop ??= this.follow().finally(() => {
      this.loop = undefined;
      // A listener that arrived while the loop was ending.
      if (this.listeners.size > 0 && !this.stopped) this.startFollowing();
    });
  }

  private following(): boolean {
    return !this.stopped && this.listeners.size > 0;
  }

  private async follow(): Promise<void> {
    const prefix = subjectPrefix(this.config.PP_NAMESPACE);
    const stream = streamName(this.config.PP_NAMESPACE, LEDGER_EVENTS_STREAM);
    const waiting = new FailureStreak(this.logger, 'merchant events follower', 'merchant events not followable yet; retrying');
    while (this.following()) {
      try {
        const options = consumerOpts().orderedConsumer().deliverNew().bindStream(stream);
        this.subscription = await this.nc.jetstream().subscribe(`${prefix}${MERCHANT_EVENTS_FILTER}`, options);
        if (!this.following()) break;
        waiting.succeeded({ stream });
        // Whatever committed before the consumer existed is only in the durable log.
        this.broadcast({ kind: 'resync' });
        for await (const message of this.subscription) this.dispatch(message.json<StoredEvent>());
      } catch (error) {
        waiting.failed(error, { stream });
      }
      if (this.following()) await new Promise((resolve) => setTimeout(resolve, RETRY_FOLLOW_MS));
    }
    this.subscription?.unsubscribe();
    this.subscription = undefined;
  }

  private dispatch(event: StoredEvent): void {
    const listeners = this.listeners.get(scopeKey(event.metadata));
    if (!listeners) return;
    const signal: FeedSignal = { kind: 'event', event: merchantEventView(event) };
    for (const listener of listeners) listener(signal);
  }

  private broadcast(signal: FeedSignal): void {
    for (const listeners of this.listeners.values()) for (const listener of listeners) listener(signal);
  }
}
