import { randomUUID } from 'node:crypto';
import { type CreateCheckoutSessionCommand, DomainError, ErrorCode, type MerchantScope } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { genuineTransfer, TestStack, waitFor } from '@pp/testing';
import type { Pool } from 'pg';

/*
 * Why refunds use one atomic multi-stream append (refund stream + payment
 * stream) and not a process manager: there is no moment at which one is
 * written and the other is not. Here the ledger dies right after committing,
 * before anyone hears the answer; the repeat then finds the work done and
 * appends nothing, so the merchant still sees exactly one payment.refunded.
 */
describe('refunds when the ledger dies between commit and reply', () => {
  let stack: TestStack;
  let bus: BusClient;
  let db: Pool;
  const LIVE: MerchantScope = { merchant_id: 'mer_crashlive', livemode: true };
  const TEST: MerchantScope = { merchant_id: 'mer_crashtest', livemode: false };

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['ledger', 'sessions', 'refunds'], label: 'refundcrash', env: { NATS_REQUEST_TIMEOUT_MS: '1500' } });
    bus = await stack.bus(10_000);
    db = await stack.sql();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function livePayment(): Promise<string> {
    const recorded = await bus.request('payments.record-transfer.v1', genuineTransfer(LIVE.merchant_id, null, { amount: 7300, sender_email: null, reference_number: 'C1' }));
    return (await bus.request('payments.verify.v1', { ...LIVE, payment_id: recorded.id, verified_by: 'usr_owner' })).id;
  }

  async function testPayment(): Promise<string> {
    const session = await bus.request('sessions.create.v1', {
      ...TEST,
      body: { amount: 4100, currency: 'cad', reference: `crash-${randomUUID()}`, success_url: 'https://a.example/s', cancel_url: 'https://a.example/c' },
      idempotency: { key: randomUUID(), fingerprint: 'fp' },
    } as CreateCheckoutSessionCommand);
    const simulated = await bus.request('payments.simulate.v1', { ...TEST, session_id: session.id, outcome: 'confirmed', idempotency: { key: randomUUID(), fingerprint: 'fp' } });
    return simulated.transaction.id;
  }

  const lost = (call: Promise<unknown>) => call.then(() => undefined, (error: DomainError) => error);

  const count = async (sql: string, params: unknown[]): Promise<number> => (await db.query(sql, params)).rows[0].n;
  const refundedEvents = (paymentId: string) =>
    count(`SELECT count(*)::int AS n FROM ledger.merchant_events WHERE type = 'payment.refunded' AND data->>'payment_id' = $1`, [paymentId]);

  async function crashLedgerAfterNextCommit(): Promise<void> {
    stack.env.LEDGER_TEST_CRASH_AFTER_COMMIT = '1';
    await stack.stopService('ledger');
    await stack.startService('ledger');
  }

  it('a live completion and a test-mode request committed before the crash are answered by their repeats, with one payment.refunded each', async () => {
    const live = await livePayment();
    const refund = await bus.request('refunds.request.v1', { ...LIVE, payment_id: live, requested_by: 'usr_owner' });
    await bus.request('refunds.approve.v1', { refund_id: refund.id, admin_id: 'adm_1' });
    await bus.request('refunds.mark-sent.v1', { refund_id: refund.id, admin_id: 'adm_1' });
    const test = await testPayment();
    const completion = { refund_id: refund.id, admin_id: 'adm_1', outbound_reference: 'CA77', evidence_note: 'Deposit confirmed by the bank' };
    const testRequest = { ...TEST, payment_id: test, requested_by: 'key_test', idempotency: { key: randomUUID(), fingerprint: 'fp-refund' } };

    await crashLedgerAfterNextCommit();
    expect(await lost(bus.request('refunds.complete.v1', completion))).toMatchObject({ code: ErrorCode.ServiceUnavailable });
    await waitFor('the ledger to have died', () => !stack.process('ledger').running);
    // Both streams committed together: the refund is COMPLETED and the payment REFUNDED.
    expect(await count(`SELECT count(*)::int AS n FROM ledger.events WHERE stream_id = $1 AND type = 'refund.completed'`, [`refund-${refund.id}`])).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM ledger.payments WHERE id = $1 AND status = 'REFUNDED'`, [live])).toBe(1);

    await stack.startService('ledger'); // still crashing after its next commit
    expect(await lost(bus.request('refunds.request.v1', testRequest))).toMatchObject({ code: ErrorCode.ServiceUnavailable });
    await waitFor('the ledger to have died again', () => !stack.process('ledger').running);
    const { rows: committed } = await db.query(`SELECT id, status FROM ledger.refunds WHERE payment_id = $1`, [test]);
    expect(committed).toEqual([{ id: expect.stringMatching(/^rf_/), status: 'COMPLETED' }]);

    delete stack.env.LEDGER_TEST_CRASH_AFTER_COMMIT;
    await stack.startService('ledger');
    const completed = await bus.request('refunds.complete.v1', completion);
    expect(completed).toMatchObject({ id: refund.id, status: 'COMPLETED', outbound_reference: 'CA77' });
    const retried = await bus.request('refunds.request.v1', testRequest);
    expect(retried).toMatchObject({ id: committed[0].id, status: 'COMPLETED', replayed: true });

    expect(await refundedEvents(live)).toBe(1);
    expect(await refundedEvents(test)).toBe(1);
    expect(await count(`SELECT count(*)::int AS n FROM ledger.refunds WHERE payment_id = $1`, [test])).toBe(1);
    const refused = await lost(bus.request('refunds.request.v1', { ...testRequest, idempotency: { key: randomUUID(), fingerprint: 'other' } }));
    expect(refused).toMatchObject({ code: ErrorCode.Conflict, message: 'Payment already refunded' });
  });
});
