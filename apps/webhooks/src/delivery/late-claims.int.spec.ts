import { randomUUID } from 'node:crypto';
import { MerchantEventType } from '@pp/contracts';
import { waitFor } from '@pp/testing';
import type { Pool } from 'pg';
import { startWebhooksTestBed, type WebhooksTestBed } from '../testing/webhooks-test-bed';
import { NOT_SENT_LATE_ERROR } from './delivery-attempt.job';

/** An attempt times out after 500 ms, so its claim's lease is 2 s (2 × timeout + 1 s). */
const TIMEOUT_MS = 500;
/** Longer than the lease and the retry's wait together: a claim held on the lock waits past its lease. */
const LOCK_HELD_MS = 4000;

/*
 * A claim's lease runs from its statement's start. A statement that waited on
 * a lock (at intake the endpoint's row, which the insert of a delivery checks
 * its foreign key against; from the queue the delivery's row, which the claim
 * updates) comes back with its lease shortened by the wait: an attempt sent then could still be under way when its lease ends and
 * another replica takes the delivery over, and the endpoint would get the
 * event twice. Such an attempt is not sent; it is recorded failed and retried
 * on the schedule.
 */
describe('webhooks: a claim that came back too late to end within its lease', () => {
  let bed: WebhooksTestBed;
  let db: Pool;

  beforeAll(async () => {
    bed = await startWebhooksTestBed('whlateclaims', { WEBHOOK_RETRY_SCHEDULE: '0,2,0.2', WEBHOOK_ATTEMPT_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    db = await bed.stack.sql();
  });
  afterAll(() => bed?.close());

  const endpointOf = async (path: string, replies: Array<{ status: number }>) => {
    const merchant = `mer_late${randomUUID().slice(0, 8)}`;
    bed.receiver.script(path, replies);
    const created = await bed.bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: bed.receiver.url(path) });
    bed.receiver.trust(path, created.secret);
    return { merchant, endpointId: created.id as string };
  };
  const attemptsOf = async ({ merchant, endpointId }: { merchant: string; endpointId: string }) =>
    (await bed.bus.request('webhooks.endpoints.deliveries.v1', { merchant_id: merchant, livemode: false, endpoint_id: endpointId })).deliveries
      .map(({ attempt, delivery_status, error_message }: { attempt: number; delivery_status: string; error_message: string | null }) => ({ attempt, delivery_status, error_message }))
      .sort((a: { attempt: number }, b: { attempt: number }) => a.attempt - b.attempt);
  /** Holds the rows `locking` selects FOR UPDATE for LOCK_HELD_MS, while `during` runs. */
  const holding = async (locking: string, endpointId: string, during: () => Promise<void>) => {
    const holder = await db.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`${locking} FOR UPDATE`, [endpointId]);
      await during();
      await new Promise((resolve) => setTimeout(resolve, LOCK_HELD_MS));
      await holder.query('COMMIT');
    } finally {
      holder.release();
    }
  };

  it('given a first attempt claimed at intake by a statement that waited on a lock past its lease, then it is not sent, and the next attempt delivers the event once', async () => {
    const endpoint = await endpointOf('/late-at-intake', [{ status: 200 }]);
    const event = bed.ledger.event(endpoint.merchant, MerchantEventType.PaymentConfirmed);
    await holding('SELECT 1 FROM webhooks.endpoints WHERE id = $1', endpoint.endpointId, () => bed.ledger.publish(event));

    await waitFor('the event delivered', async () => (await attemptsOf(endpoint)).some((attempt: { delivery_status: string }) => attempt.delivery_status === 'SUCCESS'));
    expect(await attemptsOf(endpoint)).toEqual([
      { attempt: 1, delivery_status: 'FAILED', error_message: NOT_SENT_LATE_ERROR },
      { attempt: 2, delivery_status: 'SUCCESS', error_message: null },
    ]);
    expect(bed.receiver.received('/late-at-intake').map((received) => received.eventId)).toEqual([event.id]);
  }, 30_000);

  it('given a queued attempt whose claim waited on a lock past its lease, then it is not sent either, and the one after it delivers', async () => {
    const endpoint = await endpointOf('/late-queued', [{ status: 500 }, { status: 200 }]);
    const event = bed.ledger.event(endpoint.merchant, MerchantEventType.PaymentConfirmed);
    await bed.ledger.publish(event);
    await waitFor('attempt 1 recorded failed', async () => (await attemptsOf(endpoint)).some((attempt: { delivery_status: string }) => attempt.delivery_status === 'FAILED'));
    // Attempt 2 is due 2 s after attempt 1: its claim waits on the lock for the rest of LOCK_HELD_MS, 2 s at least.
    await holding('SELECT 1 FROM webhooks.deliveries WHERE endpoint_id = $1', endpoint.endpointId, async () => undefined);

    await waitFor('the event delivered', async () => (await attemptsOf(endpoint)).some((attempt: { delivery_status: string }) => attempt.delivery_status === 'SUCCESS'));
    expect(await attemptsOf(endpoint)).toEqual([
      { attempt: 1, delivery_status: 'FAILED', error_message: expect.stringContaining('500') },
      { attempt: 2, delivery_status: 'FAILED', error_message: NOT_SENT_LATE_ERROR },
      { attempt: 3, delivery_status: 'SUCCESS', error_message: null },
    ]);
    expect(bed.receiver.received('/late-queued').map((received) => received.answeredStatus)).toEqual([500, 200]);
  }, 30_000);
});
