import { join } from 'node:path';
import { MerchantEventType } from '@pp/contracts';
import { BusClient, connectNats } from '@pp/platform';
import { REPO_ROOT, ServiceProcess, TestStack, testInfra, waitFor, WebhookReceiver } from '@pp/testing';
import type { NatsConnection } from 'nats';
import type { Pool } from 'pg';
import { NOT_SENT_WHILE_SLOW_ERROR } from './delivery/delivery-attempt.job';
import { LedgerEventFixture } from './intake/ledger-event.fixture';

describe('two webhooks replicas', () => {
  let stack: TestStack;
  let second: ServiceProcess;
  let nc: NatsConnection;
  let bus: BusClient;
  let ledger: LedgerEventFixture;
  let receiver: WebhookReceiver;
  let db: Pool;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['webhooks'],
      label: 'webhooksreplicas',
      env: { WEBHOOK_RETRY_SCHEDULE: '0,0.2,0.2,0.2', WEBHOOK_ATTEMPT_TIMEOUT_MS: '1000', WEBHOOK_SWEEP_INTERVAL_MS: '300' },
    });
    second = new ServiceProcess('webhooks', await stack.envFor('webhooks'), join(REPO_ROOT, 'tmp', 'test-logs', stack.namespace, 'second'));
    await second.start();
    nc = await connectNats(testInfra.natsUrl, 'webhooks-replicas-spec');
    bus = new BusClient(nc, stack.namespace, 5000);
    ledger = new LedgerEventFixture(nc, stack.namespace);
    await ledger.createStream();
    receiver = await WebhookReceiver.start();
    db = await stack.sql();
  });

  afterAll(async () => {
    await receiver?.close();
    await nc?.close();
    await second?.stop();
    await stack?.stop();
  });

  async function endpoint(merchantId: string, path: string) {
    const created = await bus.request('webhooks.endpoints.create.v1', { merchant_id: merchantId, livemode: false, url: receiver.url(path) });
    receiver.trust(path, created.secret);
    return created;
  }

  // Delivery is at least once: an attempt whose answer comes after the attempt timeout is retried, and the
  // receiver sees that request twice (a loaded CI machine answers late now and then; the receiver here answers
  // three requests late on purpose, so the retry path is always taken). What the replicas must never do is make
  // the same attempt twice or send a request they did not record: each (event, endpoint) succeeds exactly once,
  // the receiver saw no more requests than were recorded as attempts (a timed-out one may never have reached
  // it), and any attempt beyond the first is a timeout's retry.
  it('deliver each (event, endpoint) with exactly one success between them, retrying late answers, every request a recorded attempt', async () => {
    const merchant = 'mer_replicas';
    const paths = ['/one', '/two'];
    const endpointIds = new Map<string, string>();
    for (const path of paths) endpointIds.set(path, (await endpoint(merchant, path)).id);
    const lateAnswers = 3;
    receiver.script('/one', Array.from({ length: lateAnswers }, () => ({ delayMs: 1500 })));
    const events = Array.from({ length: 200 }, () => ledger.event(merchant, MerchantEventType.PaymentConfirmed));
    await Promise.all(events.map((event) => ledger.publish(event)));

    await waitFor('every delivery to succeed', async () => {
      const { rows } = await db.query(`SELECT count(*)::int AS n FROM webhooks.deliveries WHERE status = 'SUCCESS'`);
      return rows[0].n === events.length * paths.length;
    }, { timeoutMs: 30_000 });

    const { rows: successes } = await db.query(
      `SELECT event_id, endpoint_id, count(*)::int AS n FROM webhooks.delivery_attempts WHERE delivery_status = 'SUCCESS' GROUP BY 1, 2`,
    );
    expect(successes).toHaveLength(400);
    expect(successes).toEqual(expect.arrayOf(expect.objectContaining({ n: 1 })));
    const { rows: others } = await db.query(
      `SELECT DISTINCT error_message FROM webhooks.delivery_attempts WHERE delivery_status <> 'SUCCESS'`,
    );
    expect(others.length).toBeGreaterThan(0);
    // A late answer's timeout, or, on a loaded machine, an attempt held back behind the endpoint's late ones and never sent.
    const lateOrHeldBack = new Set(['timed out after 1000 ms', 'response body not finished within 1000 ms, connection closed', NOT_SENT_WHILE_SLOW_ERROR]);
    expect(others.filter((row: { error_message: string }) => !lateOrHeldBack.has(row.error_message))).toEqual([]);
    for (const path of paths) {
      const { rows: attempts } = await db.query(
        `SELECT count(*)::int AS n FROM webhooks.delivery_attempts WHERE endpoint_id = $1`,
        [endpointIds.get(path)],
      );
      const ids = receiver.received(path).map((r) => r.eventId);
      expect(ids.length).toBeGreaterThanOrEqual(events.length + (path === '/one' ? lateAnswers : 0));
      expect(ids.length).toBeLessThanOrEqual(attempts[0].n);
      expect(new Set(ids)).toEqual(new Set(events.map((e) => e.id)));
    }
  });

  it('makes another attempt when the replica making one is killed mid-attempt', async () => {
    const merchant = 'mer_crash';
    receiver.script('/crash', [{ delayMs: 60_000 }]);
    await endpoint(merchant, '/crash');
    const event = ledger.event(merchant, MerchantEventType.PaymentConfirmed);
    await ledger.publish(event);
    await waitFor('the first attempt to reach the receiver', () => receiver.received('/crash').length === 1);

    const { rows } = await db.query(`SELECT lease_owner FROM webhooks.deliveries WHERE event_id = $1`, [event.id]);
    const pid = Number(String(rows[0].lease_owner).split(':')[1]);
    const holder = [stack.process('webhooks'), second].find((proc) => proc.pid === pid);
    expect(holder).toBeDefined();
    await holder!.stop('SIGKILL');

    const attempts = await waitFor(
      'a second attempt that succeeds',
      async () => {
        const { rows: recorded } = await db.query(
          `SELECT attempt, delivery_status, error_message FROM webhooks.delivery_attempts WHERE event_id = $1 ORDER BY attempt`,
          [event.id],
        );
        return recorded.length === 2 && recorded[1].delivery_status === 'SUCCESS' && recorded;
      },
      { timeoutMs: 20_000 },
    );
    expect(receiver.received('/crash')).toHaveLength(2);
    expect(attempts).toEqual([
      { attempt: 1, delivery_status: 'FAILED', error_message: 'no answer recorded: the worker making this attempt stopped' },
      { attempt: 2, delivery_status: 'SUCCESS', error_message: null },
    ]);
  });
});
