import { randomUUID } from 'node:crypto';
import { JsonLogger } from '@pp/platform';
import { repositoryDatabase } from '@pp/testing';
import type { Pool } from 'pg';
import { WebhooksDatabase } from '../database/webhooks.database';
import { EndpointRepository } from '../endpoints/endpoint.repository';
import { CATCH_UP_SETTLES_MS, DeliveryRepository, type WebhookEventRecord } from './delivery.repository';

/*
 * An endpoint whose creation commits while an event is taken in: the intake's
 * statement reads the committed endpoints, so the event, though newer than the
 * endpoint, is recorded without its delivery. Staged here in the order that
 * race leaves the rows in: the event first, then the endpoint, timed before it.
 */
describe('a new endpoint’s catch-up (real Postgres, the webhooks role)', () => {
  let admin: Pool;
  let close: () => Promise<void>;
  let repository: DeliveryRepository;
  let endpoints: EndpointRepository;

  beforeAll(async () => {
    let dataSource;
    ({ dataSource, admin, close } = await repositoryDatabase(WebhooksDatabase, 'whcatchup'));
    repository = new DeliveryRepository(dataSource, new JsonLogger('webhooks', 'error'));
    endpoints = new EndpointRepository(dataSource);
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  const ago = (ms: number) => new Date(Date.now() - ms);
  const merchant = () => `mer_${randomUUID().slice(0, 8)}`;

  const endpoint = async (merchantId: string, createdAt: Date, events = '{*}'): Promise<string> => {
    const id = `wh_${randomUUID().replace(/-/g, '')}`;
    await admin.query(
      `INSERT INTO webhooks.endpoints (id, merchant_id, livemode, url, enabled_events, secret_sealed, status, created_at)
       VALUES ($1, $2, false, $3, $4, 'v1:k1:sealed', 'enabled', $5)`,
      [id, merchantId, `https://hooks.example/${id}`, events, createdAt],
    );
    return id;
  };

  /** An event taken in at its time, when the merchant's endpoints (if any) were not visible. */
  const takenIn = async (merchantId: string, createdAt: Date, type = 'payment.confirmed'): Promise<string> => {
    const recorded: WebhookEventRecord = {
      id: `evt_${randomUUID().replace(/-/g, '')}`,
      merchant_id: merchantId,
      livemode: false,
      type,
      body: '{}',
      trace: null,
      created_at: createdAt.toISOString(),
    };
    await repository.recordEvents([{ event: recorded, firstAttemptAt: new Date() }]);
    return recorded.id;
  };

  const deliveriesOf = async (endpointId: string) =>
    (await admin.query(`SELECT event_id, status, attempts FROM webhooks.deliveries WHERE endpoint_id = $1`, [endpointId])).rows;

  it('given an event taken in while its merchant’s new endpoint was being created, when the sweeper catches up: one delivery, due now, and none more on the next round', async () => {
    const merchantId = merchant();
    const missed = await takenIn(merchantId, ago(1_000));
    const endpointId = await endpoint(merchantId, ago(2_000));
    expect(await deliveriesOf(endpointId)).toEqual([]);

    const caughtUp = await repository.catchUpNewEndpoints(1000);
    expect(caughtUp.filter((due) => due.endpoint_id === endpointId)).toEqual([
      { id: expect.any(String), attempt: 1, next_attempt_at: expect.any(Date), endpoint_id: endpointId },
    ]);
    expect(await deliveriesOf(endpointId)).toEqual([{ event_id: missed, status: 'PENDING', attempts: 0 }]);

    const again = await repository.catchUpNewEndpoints(1000);
    expect(again.filter((due) => due.endpoint_id === endpointId)).toEqual([]);
  });

  it('given events older than the endpoint, of a type it does not take, or of another merchant: nothing made for it', async () => {
    const merchantId = merchant();
    await takenIn(merchantId, ago(10_000));
    await takenIn(merchantId, ago(1_000), 'refund.completed');
    await takenIn(merchant(), ago(1_000));
    const endpointId = await endpoint(merchantId, ago(5_000), '{payment.confirmed}');

    await repository.catchUpNewEndpoints(1000);
    expect(await deliveriesOf(endpointId)).toEqual([]);
  });

  it('given an event without a delivery from more than a minute after the endpoint’s time (by then the creation had committed: the intake saw the endpoint, and chose), when the sweeper catches up: nothing made for it', async () => {
    const merchantId = merchant();
    await takenIn(merchantId, ago(30_000));
    const endpointId = await endpoint(merchantId, ago(100_000));

    await repository.catchUpNewEndpoints(1000);
    expect(await deliveriesOf(endpointId)).toEqual([]);
  });

  const settledAt = async (endpointId: string) => (await admin.query(`SELECT caught_up_at FROM webhooks.endpoints WHERE id = $1`, [endpointId])).rows[0].caught_up_at;

  it('given an endpoint older than the catch-up takes to settle, not yet caught up (no round came since it was made): its missed event is delivered, and then it is settled', async () => {
    const merchantId = merchant();
    const missed = await takenIn(merchantId, ago(10 * 60_000 - 5_000));
    const endpointId = await endpoint(merchantId, ago(10 * 60_000));

    await repository.catchUpNewEndpoints(1000);
    expect(await deliveriesOf(endpointId)).toEqual([{ event_id: missed, status: 'PENDING', attempts: 0 }]);
    expect(await settledAt(endpointId)).toEqual(expect.any(Date));

    await admin.query(`DELETE FROM webhooks.deliveries WHERE endpoint_id = $1`, [endpointId]);
    await repository.catchUpNewEndpoints(1000);
    expect(await deliveriesOf(endpointId)).toEqual([]);
  });

  it('given a round that made as many deliveries as it may: the endpoint is settled only once a round makes fewer', async () => {
    const merchantId = merchant();
    await takenIn(merchantId, ago(CATCH_UP_SETTLES_MS + 9_000));
    await takenIn(merchantId, ago(CATCH_UP_SETTLES_MS + 8_000));
    const endpointId = await endpoint(merchantId, ago(CATCH_UP_SETTLES_MS + 10_000));

    // Other tests' endpoints may take the round's one delivery: round until this endpoint has both.
    for (let round = 0; round < 10 && (await deliveriesOf(endpointId)).length < 2; round++) {
      expect(await settledAt(endpointId)).toBeNull();
      expect(await repository.catchUpNewEndpoints(1)).toHaveLength(1);
    }
    expect(await deliveriesOf(endpointId)).toHaveLength(2);
    expect(await settledAt(endpointId)).toBeNull();
    await repository.catchUpNewEndpoints(1000);
    expect(await settledAt(endpointId)).toEqual(expect.any(Date));
  });

  it('given an endpoint disabled, then enabled again, before its catch-up: what it missed while it was created is sent, what came while it was disabled is not', async () => {
    const merchantId = merchant();
    const missed = await takenIn(merchantId, ago(1_000));
    const endpointId = await endpoint(merchantId, ago(2_000));
    const scope = { merchant_id: merchantId, livemode: false };
    await endpoints.setStatus(scope, endpointId, 'disabled', 'disabled by the merchant');
    await new Promise((resolve) => setTimeout(resolve, 20));
    await takenIn(merchantId, new Date()); // the intake sees the endpoint, disabled, and skips it
    await endpoints.setStatus(scope, endpointId, 'enabled', null);

    await repository.catchUpNewEndpoints(1000);
    expect(await deliveriesOf(endpointId)).toEqual([{ event_id: missed, status: 'PENDING', attempts: 0 }]);
  });

  it('given an endpoint still disabled: the catch-up waits for its enabling', async () => {
    const merchantId = merchant();
    await takenIn(merchantId, ago(1_000));
    const endpointId = await endpoint(merchantId, ago(2_000));
    await endpoints.setStatus({ merchant_id: merchantId, livemode: false }, endpointId, 'disabled', 'disabled by the merchant');

    await repository.catchUpNewEndpoints(1000);
    expect(await deliveriesOf(endpointId)).toEqual([]);
    expect(await settledAt(endpointId)).toBeNull();
  });

  it('given a creation that waits on its merchant’s lock, when it goes on: its time is read at the insert, after the wait, and its catch-up is not settled', async () => {
    const merchantId = merchant();
    await admin.query(`INSERT INTO webhooks.endpoint_scopes (merchant_id, livemode) VALUES ($1, false)`, [merchantId]);
    const holder = await admin.connect();
    let released: number;
    let made;
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM webhooks.endpoint_scopes WHERE merchant_id = $1 AND NOT livemode FOR UPDATE`, [merchantId]);
      const creating = endpoints.insertWithinLimit(
        { id: `wh_${randomUUID().replace(/-/g, '')}`, merchant_id: merchantId, livemode: false, url: 'https://hooks.example/new', description: null, enabled_events: ['*'], secret_sealed: 'v1:k1:sealed' },
        16,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      released = Date.now();
      await holder.query('COMMIT');
      made = await creating;
    } finally {
      holder.release();
    }
    expect(made).toBeDefined();
    // Read at the transaction's start, as now() is, it would be some 300 ms before the lock was let go.
    expect(made!.created_at.getTime()).toBeGreaterThanOrEqual(released - 50);
    expect(await settledAt(made!.id)).toBeNull();
  });
});
