import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { MERCHANT_EVENTS_FEED, type MerchantEventView, type MerchantScope, merchantScopeKey, type StoredEvent } from '@pp/contracts';
import { CONFIG, JsonLogger, NATS_CONNECTION, subjectPrefix } from '@pp/platform';
import type { NatsConnection, Status, Subscription } from 'nats';
import type { GatewayConfig } from '../gateway.config';
import { merchantEventView } from './merchant-event.view';

/** What a follower hears: a new event of its merchant and mode, or that the feed (re)started and may have missed some. */
export type FeedSignal = { kind: 'event'; event: MerchantEventView } | { kind: 'resync' };
export type FeedListener = (signal: FeedSignal) => void;

/** How long to wait before following again after the server ended the subscription. */
const RETRY_FOLLOW_MS = 1000;


/**
 * New merchant-visible events, live as the ledger's JetStream stream stores
 * them: one plain subscription to where the stream republishes them
 * (MERCHANT_EVENTS_FEED, without the ledger's reply subjects, which the
 * gateway could otherwise answer) per gateway
 * process while it serves at least one event stream, handed to the event
 * streams of the event's merchant and mode. No JetStream consumer: a right
 * to create one would reach the webhooks' durable consumer too
 * (libs/contracts bus-access, `followers`). It is a wake-up feed, not the
 * record: when it starts, and after every reconnection to NATS (whatever
 * was published meanwhile never reached it), its listeners hear `resync` and
 * read the ledger's durable merchant_events log, so an event published while
 * the feed was away is still sent (docs/ARCHITECTURE.md "Event stream").
 */
@Injectable()
export class MerchantEventFeed implements OnApplicationShutdown {
  private readonly listeners = new Map<string, Set<FeedListener>>();
  private subscription?: Subscription;
  private reconnects?: AsyncIterable<Status> & { stop(): void };
  private stopped = false;

  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly logger: JsonLogger,
  ) {}

  onApplicationShutdown(): void {
    this.stopped = true;
    this.stopFollowing();
  }

  /** Hears the events of one merchant and mode until the returned function is called; the first listener starts the following. */
  listen(scope: MerchantScope, listener: FeedListener): () => void {
    const key = merchantScopeKey(scope);
    const set = this.listeners.get(key) ?? new Set<FeedListener>();
    set.add(listener);
    this.listeners.set(key, set);
    if (!this.stopped) this.startFollowing();
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(key) === set) this.listeners.delete(key);
      // Nobody listens: a gateway without open streams receives no events at all.
      if (this.listeners.size === 0) this.stopFollowing();
    };
  }

  private startFollowing(): void {
    if (this.subscription) return;
    const subscription = this.nc.subscribe(`${subjectPrefix(this.config.PP_NAMESPACE)}${MERCHANT_EVENTS_FEED}`, {
      // Called from the connection's reader: anything thrown here would stop it reading, replies to bus calls included.
      callback: (error, message) => {
        if (error) return this.lost(subscription, error);
        try {
          this.dispatch(message.json<StoredEvent>());
        } catch (failure) {
          this.logger.warn('merchant events feed: skipped a message it could not read', { error: String(failure) });
        }
      },
    });
    this.subscription = subscription;
    const reconnects = this.nc.status() as AsyncIterable<Status> & { stop(): void };
    this.reconnects = reconnects;
    void (async () => {
      for await (const status of reconnects) if (status.type === 'reconnect' && this.subscription === subscription) this.broadcast({ kind: 'resync' });
    })();
    // Whatever committed before the subscription existed is only in the durable log.
    this.broadcast({ kind: 'resync' });
  }

  /**
   * The server ended the subscription (a permission it does not grant yet, during a rolling update of its
   * configuration): followed again after RETRY_FOLLOW_MS while anyone listens, and resynced then.
   */
  private lost(subscription: Subscription, error: Error): void {
    this.logger.warn('merchant events feed: subscription ended; following again shortly', { error: error.message });
    if (this.subscription !== subscription) return;
    this.stopFollowing();
    setTimeout(() => {
      if (!this.stopped && this.listeners.size > 0) this.startFollowing();
    }, RETRY_FOLLOW_MS).unref();
  }

  private stopFollowing(): void {
    this.subscription?.unsubscribe();
    this.subscription = undefined;
    this.reconnects?.stop();
    this.reconnects = undefined;
  }

  private dispatch(event: StoredEvent): void {
    const listeners = this.listeners.get(merchantScopeKey(event.metadata));
    if (!listeners) return;
    const signal: FeedSignal = { kind: 'event', event: merchantEventView(event) };
    for (const listener of listeners) listener(signal);
  }

  private broadcast(signal: FeedSignal): void {
    for (const listeners of this.listeners.values()) for (const listener of listeners) listener(signal);
  }
}
