import { MerchantEventType, WebhookDeliveryStatus } from '@pp/contracts';
import { waitFor } from '@pp/testing';
import { startWebhooksTestBed, type WebhooksTestBed } from '../testing/webhooks-test-bed';

/*
 * An attempt's outcome is written once the endpoint has answered. A write that fails (a Postgres blip, a failover of a
 * second or two) is tried again while the lease lasts: given up, the delivery would stay leased, and once the lease ran
 * out the sweeper would send it again, a second POST of an event the endpoint had already taken. The blip here is a
 * trigger that refuses the first writes of a success (a sequence counts its calls, and a sequence is not rolled back
 * with the statement).
 */
describe('webhooks: an outcome write that fails for a while', () => {
  let bed: WebhooksTestBed;

  beforeAll(async () => {
    // A lease of 7 s (2 × the attempt timeout + 1 s) and a sweep every 300 ms: a delivery left leased is sent again within seconds.
    bed = await startWebhooksTestBed('whoutcomeblip', { WEBHOOK_RETRY_SCHEDULE: '0,0.2,0.2', WEBHOOK_ATTEMPT_TIMEOUT_MS: '3000', WEBHOOK_SWEEP_INTERVAL_MS: '300' });
  });
  afterAll(() => bed?.close());

  it('given the first four writes of a success fail (two seconds), then it is written on the fifth try: one POST, the delivery a success', async () => {
    const { bus, ledger, receiver, stack } = bed;
    const sql = await stack.sql();
    const merchant = `mer_blip${Date.now()}`;
    const created = await bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: receiver.url('/blip') });
    receiver.trust('/blip', created.secret);
    await sql.query(`CREATE SEQUENCE webhooks.outcome_writes`);
    await sql.query(`
      CREATE FUNCTION webhooks.fail_first_success() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
      BEGIN
        IF NEW.delivery_status = 'SUCCESS' AND nextval('webhooks.outcome_writes') <= 4 THEN
          RAISE EXCEPTION 'a blip: the first outcome writes fail';
        END IF;
        RETURN NEW;
      END $$`);
    await sql.query(`CREATE TRIGGER fail_first_success BEFORE UPDATE ON webhooks.delivery_attempts FOR EACH ROW EXECUTE FUNCTION webhooks.fail_first_success()`);
    try {
      const event = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
      await ledger.publish(event);

      const attempts = await waitFor('the success recorded', async () => {
        const { deliveries } = await bus.request('webhooks.deliveries.list.v1', { merchant_id: merchant, livemode: false, event_id: event.id });
        return deliveries.some((delivery) => delivery.delivery_status === WebhookDeliveryStatus.Success) && deliveries;
      });
      expect(attempts.map(({ attempt, delivery_status }) => ({ attempt, delivery_status }))).toEqual([{ attempt: 1, delivery_status: WebhookDeliveryStatus.Success }]);
      expect((await sql.query(`SELECT last_value, is_called FROM webhooks.outcome_writes`)).rows[0]).toEqual({ last_value: '5', is_called: true });
      // Past the lease and a few sweeps: nothing was left leased to be sent again.
      await new Promise((resolve) => setTimeout(resolve, 8000));
      expect(receiver.received('/blip').map((delivery) => delivery.eventId)).toEqual([event.id]);
    } finally {
      await sql.query(`DROP TRIGGER fail_first_success ON webhooks.delivery_attempts`);
    }
  }, 40_000);
});
