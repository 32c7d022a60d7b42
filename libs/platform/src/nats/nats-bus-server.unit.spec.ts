import { Logger } from '@nestjs/common';
import { ErrorCode, type Msg, type NatsConnection, NatsError, type SubscriptionOptions } from 'nats';
import { BusMetrics } from '../metrics/bus-metrics';
import { ServiceMetrics } from '../metrics/service-metrics';
import { NatsBusServer } from './nats-bus-server';

type SubscriptionCallback = NonNullable<SubscriptionOptions['callback']>;

/** nats.js's error for the server's `-ERR` line, quotes included. */
const refusalOf = (subject: string) =>
  new NatsError(`'Permissions Violation for Subscription to "${subject}" using queue "checkout"'`, ErrorCode.PermissionsViolation);

/**
 * A connection as nats.js behaves towards a server that refuses `refused`: the refusal reaches the subscription's
 * callback first (the server answers the SUB before the PING after it), the flush's answer a few ms later.
 */
function connectionRefusing(refused: string[]) {
  const callbacks = new Map<string, SubscriptionCallback>();
  const nc = {
    subscribe: (subject: string, options: SubscriptionOptions) => {
      callbacks.set(subject, options.callback!);
      if (refused.includes(subject)) queueMicrotask(() => options.callback!(refusalOf(subject), {} as Msg));
      return {};
    },
    flush: () => new Promise<void>((resolve) => setTimeout(resolve, 5)),
  } as unknown as NatsConnection;
  return { nc, callbacks };
}

/** A checkout server (its one subject is its health request) on `nc`, and what its listen called back with. */
async function listening(nc: NatsConnection) {
  const server = new NatsBusServer({ nc, prefix: 'ns', service: 'checkout', metrics: new BusMetrics(new ServiceMetrics('checkout')) });
  server.addHandler('health.checkout', async () => ({ status: 'ok' }), false);
  const outcome = await new Promise<Error | undefined>((resolve) => server.listen(resolve));
  return { server, outcome };
}

describe('NatsBusServer subscriptions', () => {
  beforeAll(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined)); // the refusals' log lines
  afterAll(() => jest.restoreAllMocks());

  it('given the server refuses a subscription before it answers the flush, when listening, then listen fails naming the subject and why', async () => {
    const { outcome } = await listening(connectionRefusing(['ns.health.checkout']).nc);
    expect(outcome).toBeInstanceOf(Error);
    expect(outcome?.message).toBe(`subscription to ns.health.checkout refused: 'Permissions Violation for Subscription to "ns.health.checkout" using queue "checkout"'`);
  });

  it('given every subscription taken, when listening, then listen succeeds and the subscriptions check passes', async () => {
    const { server, outcome } = await listening(connectionRefusing([]).nc);
    expect(outcome).toBeUndefined();
    await expect(server.subscribed()).resolves.toBeUndefined();
  });

  it('given a subscription refused after start-up (a reconnect under narrower permissions), then the subscriptions check fails naming it', async () => {
    const { nc, callbacks } = connectionRefusing([]);
    const { server } = await listening(nc);
    callbacks.get('ns.health.checkout')!(refusalOf('ns.health.checkout'), {} as Msg);
    await expect(server.subscribed()).rejects.toThrow(/^subscription to ns\.health\.checkout refused: 'Permissions Violation/);
  });
});
