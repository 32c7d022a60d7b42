import { randomBytes } from 'node:crypto';
import { LEDGER_EVENTS_STREAM, ledgerEventSubject, MERCHANT_EVENTS_FEED, MerchantEventType, WEBHOOKS_DELIVERY_CONSUMER } from '@pp/contracts';
import { connectNats, streamName, subjectPrefix } from '@pp/platform';
import { testInfra } from '@pp/testing';
import { AckPolicy, type NatsConnection } from 'nats';
import { LedgerEventFixture } from './ledger-event.fixture';

/**
 * The gateway hears LEDGER_EVENTS' merchant events live. The webhooks'
 * durable consumer must be out of its reach: changed (another filter),
 * replaced or deleted, events published meanwhile would never become
 * webhooks. Any right to create a consumer on the stream would reach it
 * (NATS's older create API takes a consumer's name in the body), so the
 * gateway has none: it hears the events through a plain subscription. On
 * the project's real NATS server, as the gateway's own bus identity.
 */
describe('the webhooks’ durable consumer, against the gateway’s bus identity', () => {
  const namespace = `t${randomBytes(5).toString('hex')}`;
  const stream = streamName(namespace, LEDGER_EVENTS_STREAM);
  let harness: NatsConnection;
  let gateway: NatsConnection;

  beforeAll(async () => {
    harness = await connectNats(testInfra.natsUrl, 'durable-guard-spec');
    await new LedgerEventFixture(harness, namespace).createStream();
    await (await harness.jetstreamManager()).consumers.add(stream, { durable_name: WEBHOOKS_DELIVERY_CONSUMER, ack_policy: AckPolicy.Explicit });
    gateway = await connectNats(testInfra.natsUrlOf('gateway'), 'durable-guard-spec-gateway');
  });
  afterAll(async () => {
    await (await harness?.jetstreamManager())?.streams.delete(stream).catch(() => undefined);
    await gateway?.close();
    await harness?.close();
  });

  /** A JetStream API call's failure (the server refuses the subject, so the request fails or goes unanswered). */
  const refusal = (call: Promise<unknown>) =>
    Promise.race([call.then(() => 'done', (error: Error) => error.message), new Promise((resolve) => setTimeout(resolve, 3_000, 'no answer'))]);

  it('refuses the gateway deleting it, or changing it, and it stays as it was', async () => {
    const jsm = await gateway.jetstreamManager({ timeout: 2_000 });
    expect(await refusal(jsm.consumers.delete(stream, WEBHOOKS_DELIVERY_CONSUMER))).not.toBe('done');
    expect(await refusal(jsm.consumers.update(stream, WEBHOOKS_DELIVERY_CONSUMER, { filter_subject: 'nothing.at.all' }))).not.toBe('done');
    expect(await refusal(jsm.consumers.add(stream, { durable_name: WEBHOOKS_DELIVERY_CONSUMER, ack_policy: AckPolicy.None, filter_subject: 'nothing.at.all' }))).not.toBe('done');

    const info = await (await harness.jetstreamManager()).consumers.info(stream, WEBHOOKS_DELIVERY_CONSUMER);
    expect(info.config).toMatchObject({ durable_name: WEBHOOKS_DELIVERY_CONSUMER, ack_policy: AckPolicy.Explicit });
    expect(info.config.filter_subject ?? '').not.toBe('nothing.at.all');
  });

  it.each(['durable_name', 'name'])('refuses the gateway rewriting it through the older create API, which names the consumer in the body (%s)', async (field) => {
    // A filter the stream does carry, so only the gateway's rights can be what refuses it.
    const filter = `${subjectPrefix(namespace)}${ledgerEventSubject(MerchantEventType.PaymentConfirmed)}`;
    const legacy = JSON.stringify({ stream_name: stream, config: { [field]: WEBHOOKS_DELIVERY_CONSUMER, ack_policy: 'explicit', filter_subject: filter } });
    const answer = await gateway
      .request(`$JS.API.CONSUMER.CREATE.${stream}`, new TextEncoder().encode(legacy), { timeout: 2_000 })
      .then((reply) => new TextDecoder().decode(reply.data), (error: Error) => error.message);
    expect(answer).toMatch(/permission|timeout|no responders/i);
    const info = await (await harness.jetstreamManager()).consumers.info(stream, WEBHOOKS_DELIVERY_CONSUMER);
    expect(info.config).toMatchObject({ durable_name: WEBHOOKS_DELIVERY_CONSUMER, ack_policy: AckPolicy.Explicit });
    expect(info.config.filter_subject ?? '').not.toBe(filter);
  });

  it('lets the gateway create no consumer at all on the stream, yet hear its merchant events as the stream republishes them', async () => {
    const jsm = await gateway.jetstreamManager({ timeout: 2_000, checkAPI: false });
    expect(await refusal(jsm.consumers.add(stream, { name: `follower${randomBytes(4).toString('hex')}`, ack_policy: AckPolicy.None }))).not.toBe('done');
    const heard: string[] = [];
    const subscription = gateway.subscribe(`${subjectPrefix(namespace)}${MERCHANT_EVENTS_FEED}`, { callback: (_error, message) => heard.push(message.json<{ id: string }>().id) });
    await gateway.flush();
    const fixture = new LedgerEventFixture(harness, namespace);
    const event = fixture.event('mer_guard', MerchantEventType.PaymentConfirmed);
    await fixture.publish(event);
    for (let i = 0; i < 50 && heard.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    subscription.unsubscribe();
    expect(heard).toEqual([event.id]);
  });
});
