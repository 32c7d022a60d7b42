import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type CreateCheckoutSessionCommand, type MerchantScope, REFUND_STATUSES, type RefundStageReply, type RefundView } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { genuineTransfer, REPO_ROOT, TestStack } from '@pp/testing';
import type { Pool } from 'pg';

const REBUILD = join(REPO_ROOT, 'dist', 'apps', 'ledger', 'src', 'rebuild.js');

/** `ledger:rebuild` with refunds in every stage: the same answers for merchants and the operator, and the one-refund rule still holds. */
describe('rebuilding the read models with refunds present', () => {
  let stack: TestStack;
  let bus: BusClient;
  let db: Pool;
  const SCOPES: MerchantScope[] = [
    { merchant_id: 'mer_r1', livemode: true },
    { merchant_id: 'mer_r1', livemode: false },
    { merchant_id: 'mer_r2', livemode: true },
  ];

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['ledger', 'sessions', 'refunds'], label: 'refundrebuild' });
    bus = await stack.bus(15_000);
    db = await stack.sql();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function payment(scope: MerchantScope, i: number): Promise<string> {
    if (scope.livemode) {
      const recorded = await bus.request(
        'payments.record-transfer.v1',
        genuineTransfer(scope.merchant_id, null, { email_id: `em_rb_${scope.merchant_id}_${i}`, amount: 1000 + i, sender_name: `Payer ${i}`, sender_email: null, reference_number: `C${i}` }),
      );
      return (await bus.request('payments.verify.v1', { ...scope, payment_id: recorded.id, verified_by: 'usr_1' })).id;
    }
    const session = await bus.request('sessions.create.v1', {
      ...scope,
      body: { amount: 1000 + i, currency: 'cad', reference: `rb-${i}`, success_url: 'https://a.example/s', cancel_url: 'https://a.example/c' },
      idempotency: { key: randomUUID(), fingerprint: 'fp' },
    } as CreateCheckoutSessionCommand);
    return (await bus.request('payments.simulate.v1', { ...scope, session_id: session.id, outcome: 'confirmed', idempotency: { key: randomUUID(), fingerprint: 'fp' } })).transaction.id;
  }

  /** Live refunds taken to each stage (and test ones, which complete at once); returns the refunds and the payments still held. */
  async function refundsInEveryStage(scope: MerchantScope): Promise<RefundView[]> {
    const refunds: RefundView[] = [];
    const paths: string[][] = scope.livemode
      ? [[], ['approve'], ['reject'], ['approve', 'mark-sent'], ['approve', 'mark-sent', 'complete'], ['approve', 'mark-sent', 'fail'], ['cancel']]
      : [[], []];
    for (const [i, path] of paths.entries()) {
      const paymentId = await payment(scope, i);
      const { replayed, ...requested } = await bus.request('refunds.request.v1', { ...scope, payment_id: paymentId, requested_by: 'usr_1', reason: i % 2 ? 'why not' : null });
      expect(replayed).toBe(false);
      let refund: RefundView = requested;
      const admin = { refund_id: refund.id, admin_id: 'adm_1' };
      const moved = async (reply: Promise<RefundStageReply>): Promise<RefundView> => {
        const { changed, ...view } = await reply;
        expect(changed).toBe(true);
        return view;
      };
      for (const step of path) {
        if (step === 'approve') refund = await moved(bus.request('refunds.approve.v1', admin));
        if (step === 'reject') refund = await moved(bus.request('refunds.reject.v1', { ...admin, rejection_reason: 'no' }));
        if (step === 'mark-sent') refund = await moved(bus.request('refunds.mark-sent.v1', admin));
        if (step === 'complete') refund = await moved(bus.request('refunds.complete.v1', { ...admin, outbound_reference: `CA-${scope.merchant_id}-${i}`, evidence_note: 'deposited' }));
        if (step === 'fail') refund = await moved(bus.request('refunds.fail.v1', { ...admin, failure_reason: 'bounced' }));
        if (step === 'cancel') refund = await moved(bus.request('refunds.cancel.v1', { ...scope, refund_id: refund.id, cancelled_by: 'usr_1' }));
      }
      refunds.push(refund);
    }
    return refunds;
  }

  async function answers(refunds: RefundView[]): Promise<unknown[]> {
    const pages: unknown[] = [];
    for (const scope of SCOPES) {
      let after: string | undefined;
      do {
        const page = await bus.request('ledger.refunds.list.v1', { ...scope, limit: 2, ...(after ? { starting_after: after } : {}) });
        pages.push(page);
        after = page.has_more ? page.data[page.data.length - 1].id : undefined;
      } while (after);
      pages.push(await bus.request('ledger.payments.list.v1', { ...scope, limit: 50 }));
      pages.push(await bus.request('ledger.merchant-events.list.v1', { ...scope, limit: 50 }));
    }
    for (const status of REFUND_STATUSES) pages.push(await bus.request('ledger.refunds.admin-list.v1', { status, limit: 50 }));
    for (const refund of refunds) {
      pages.push(await bus.request('ledger.refunds.get.v1', { merchant_id: refund.merchant_id, livemode: refund.livemode, refund_id: refund.id }));
      pages.push(await bus.request('ledger.refunds.admin-get.v1', { refund_id: refund.id }));
    }
    return pages;
  }

  it('answers identically after dropping and rebuilding, and still holds one refund per payment', async () => {
    const refunds = (await Promise.all(SCOPES.map(refundsInEveryStage))).flat();
    expect(new Set(refunds.map((refund) => refund.status))).toEqual(new Set(REFUND_STATUSES));
    // What the commands answered is what the read model shows.
    for (const refund of refunds) expect(await bus.request('ledger.refunds.admin-get.v1', { refund_id: refund.id })).toEqual(refund);
    const before = await answers(refunds);

    await db.query(`DELETE FROM ledger.refunds WHERE id = $1`, [refunds[0].id]);
    await db.query(`UPDATE ledger.refunds SET status = 'CANCELLED', evidence_note = 'tampered' WHERE status = 'COMPLETED'`);
    const { stdout } = await promisify(execFile)(process.execPath, [REBUILD], { env: { PATH: process.env.PATH ?? '', MIGRATION_DATABASE_URL: stack.database.ownerUrl } });
    expect(stdout).toMatch(/rebuilding read models: .*refunds/);
    expect(await answers(refunds)).toEqual(before);

    const held = refunds.find((refund) => refund.livemode && refund.status === 'SENT')!;
    const done = refunds.find((refund) => refund.livemode && refund.status === 'COMPLETED')!;
    const request = (refund: RefundView) =>
      bus.request('refunds.request.v1', { merchant_id: refund.merchant_id, livemode: refund.livemode, payment_id: refund.payment_id, requested_by: 'usr_1' }).then(
        () => undefined,
        (error: Error) => error.message,
      );
    expect(await request(held)).toBe('A refund is already open for this payment');
    expect(await request(done)).toBe('Payment already refunded');
  });
});
