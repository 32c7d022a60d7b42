import { LEDGER_EVENTS_STREAM, MerchantEventType, WEBHOOKS_DELIVERY_CONSUMER } from '@pp/contracts';
import { connectNats, streamName } from '@pp/platform';
import { testInfra, waitFor } from '@pp/testing';
import type { NatsConnection } from 'nats';
import { startWebhooksTestBed, type WebhooksTestBed } from '../testing/webhooks-test-bed';

/*
 * An event read again from LEDGER_EVENTS (its acknowledgement lost, or the durable consumer made anew, which reads the
 * stream from its start) was recorded already: it gets no delivery to an endpoint that was disabled when it was first
 * recorded and is enabled now. What a disabled spell missed is never sent (docs/ARCHITECTURE.md "Webhook delivery").
 */
describe('webhooks: an event read again', () => {
  let bed: WebhooksTestBed;
  let nc: NatsConnection;

  beforeAll(async () => {
    bed = await startWebhooksTestBed('whreplayed', { WEBHOOK_SWEEP_INTERVAL_MS: '300' });
    nc = await connectNats(testInfra.natsUrl, 'whreplayed-harness');
  });
  afterAll(async () => {
    await nc?.close();
    await bed?.close();
  });

  it('given an event recorded while an endpoint was disabled, when the durable consumer is made anew and reads it again after the endpoint is enabled, then the endpoint gets only the events after its enabling', async () => {
    const { bus, ledger, receiver, stack } = bed;
    const sql = await stack.sql();
    const merchant = `mer_replay${Date.now()}`;
    const scope = { merchant_id: merchant, livemode: false };
    const endpoint = await bus.request('webhooks.endpoints.create.v1', { ...scope, url: receiver.url('/replayed') });
    receiver.trust('/replayed', endpoint.secret);
    await bus.request('webhooks.endpoints.set-status.v1', { ...scope, endpoint_id: endpoint.id, status: 'disabled' });

    const missed = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    await ledger.publish(missed);
    await waitFor('the event recorded', async () => (await sql.query(`SELECT 1 FROM webhooks.events WHERE id = $1`, [missed.id])).rowCount === 1);
    await bus.request('webhooks.endpoints.set-status.v1', { ...scope, endpoint_id: endpoint.id, status: 'enabled' });

    // Made anew, the consumer reads the stream from its start: the missed event comes again, before the next one.
    await (await nc.jetstreamManager()).consumers.delete(streamName(stack.namespace, LEDGER_EVENTS_STREAM), WEBHOOKS_DELIVERY_CONSUMER);
    const after = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    await ledger.publish(after);
    await waitFor('both events handled by the consumer made anew', async () => (await ledger.webhooksConsumer().catch(() => undefined))?.ack_floor.stream_seq === 2, { timeoutMs: 30_000 });
    await waitFor('the event after the enabling delivered', () => receiver.received('/replayed').length > 0, { timeoutMs: 30_000 });

    expect(receiver.received('/replayed').map((delivery) => delivery.eventId)).toEqual([after.id]);
    const { rows } = await sql.query(`SELECT event_id FROM webhooks.deliveries WHERE endpoint_id = $1`, [endpoint.id]);
    expect(rows).toEqual([{ event_id: after.id }]);
  }, 60_000);
});
