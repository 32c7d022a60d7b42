import { randomBytes } from 'node:crypto';
import { LEDGER_EVENTS_STREAM, WEBHOOKS_DELIVERY_CONSUMER } from '@pp/contracts';
import { connectNats, streamName } from '@pp/platform';
import { testInfra } from '@pp/testing';
import { AckPolicy, type NatsConnection } from 'nats';
import { LedgerEventFixture } from './ledger-event.fixture';

/**
 * The gateway follows LEDGER_EVENTS through ordered consumers, a right to
 * create consumers of any name on the stream. The webhooks' durable consumer
 * must be out of its reach: changed (another filter) or deleted, events
 * published meanwhile would never become webhooks. On the project's real
 * NATS server, as the gateway's own bus identity.
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

  it('refuses the gateway rewriting it through the older create API, which names the consumer in the body', async () => {
    const legacy = JSON.stringify({ stream_name: stream, config: { durable_name: WEBHOOKS_DELIVERY_CONSUMER, ack_policy: 'explicit', filter_subject: 'nothing.at.all' } });
    const answer = await gateway
      .request(`$JS.API.CONSUMER.CREATE.${stream}`, new TextEncoder().encode(legacy), { timeout: 2_000 })
      .then((reply) => new TextDecoder().decode(reply.data), (error: Error) => error.message);
    // NATS itself refuses a durable name on this subject (it creates ephemeral consumers only), if the permissions let it through.
    expect(answer).toMatch(/"error"|permission|timeout/i);
    const info = await (await harness.jetstreamManager()).consumers.info(stream, WEBHOOKS_DELIVERY_CONSUMER);
    expect(info.config.filter_subject ?? '').not.toBe('nothing.at.all');
  });

  it('still lets the gateway create and delete consumers of its own on the stream (what following needs)', async () => {
    const jsm = await gateway.jetstreamManager({ timeout: 2_000 });
    const own = `follower${randomBytes(4).toString('hex')}`;
    const created = await jsm.consumers.add(stream, { name: own, ack_policy: AckPolicy.None, inactive_threshold: 10_000_000_000 });
    expect(created.name).toBe(own);
    expect(await jsm.consumers.delete(stream, own)).toBe(true);
  });
});
