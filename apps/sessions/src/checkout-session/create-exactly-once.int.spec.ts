import { randomUUID } from 'node:crypto';
import { type CreateCheckoutSessionCommand, DomainError, ErrorCode } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { TestStack, waitFor } from '@pp/testing';
import type { Pool } from 'pg';

describe('exactly-once creation when the ledger dies between commit and reply', () => {
  let stack: TestStack;
  let bus: BusClient;
  let db: Pool;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['ledger', 'sessions'],
      label: 'exactlyonce',
      env: { LEDGER_TEST_CRASH_AFTER_COMMIT: '1', NATS_REQUEST_TIMEOUT_MS: '1500' },
    });
    bus = await stack.bus(10_000);
    db = await stack.sql();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers the retry with the session committed before the crash, and never makes a second one', async () => {
    const command = {
      merchant_id: 'mer_crash',
      livemode: false,
      body: { amount: 4200, currency: 'cad', reference: 'order-crash', success_url: 'https://a.example/s', cancel_url: 'https://a.example/c' },
      idempotency: { key: randomUUID(), fingerprint: 'fp-crash' },
    } as CreateCheckoutSessionCommand;

    const lost = await bus.request('sessions.create.v1', command).then(
      () => undefined,
      (error: DomainError) => error,
    );
    expect(lost).toMatchObject({ code: ErrorCode.ServiceUnavailable });
    await waitFor('the ledger to have died', () => !stack.process('ledger').running);
    const committed = await db.query(`SELECT id FROM ledger.checkout_sessions WHERE reference = 'order-crash'`);
    expect(committed.rows).toHaveLength(1); // the commit happened; only the answer was lost

    delete stack.env.LEDGER_TEST_CRASH_AFTER_COMMIT;
    await stack.startService('ledger');
    const retried = await bus.request('sessions.create.v1', command);
    expect(retried).toMatchObject({ id: committed.rows[0].id, reference: 'order-crash', status: 'PENDING', replayed: true });
    const again = await bus.request('sessions.create.v1', command);
    expect(again).toEqual(retried);

    const sessions = await db.query(`SELECT count(*)::int AS n FROM ledger.checkout_sessions WHERE merchant_id = 'mer_crash'`);
    const created = await db.query(`SELECT count(*)::int AS n FROM ledger.events WHERE type = 'session.created' AND metadata->>'merchant_id' = 'mer_crash'`);
    expect(sessions.rows[0].n).toBe(1);
    expect(created.rows[0].n).toBe(1);
    expect(await bus.request('sessions.get.v1', { merchant_id: 'mer_crash', livemode: false, session_id: retried.id })).toMatchObject({
      amount: 4200,
      status: 'PENDING',
    });
  });
});
