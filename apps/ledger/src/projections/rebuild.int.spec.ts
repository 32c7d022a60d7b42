import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CheckoutSessionView, CreateCheckoutSessionCommand } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { genuineTransfer, REPO_ROOT, TestStack } from '@pp/testing';
import type { Pool } from 'pg';

const REBUILD = join(REPO_ROOT, 'dist', 'apps', 'ledger', 'src', 'rebuild.js');
const SESSIONS = 300;

describe('rebuilding the read models from the event store', () => {
  let stack: TestStack;
  let bus: BusClient;
  let db: Pool;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['ledger', 'sessions'], label: 'rebuild' });
    bus = await stack.bus(20_000);
    db = await stack.sql();
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function inBatches<T>(count: number, size: number, run: (i: number) => Promise<T>): Promise<T[]> {
    const results: T[] = [];
    for (let start = 0; start < count; start += size) {
      results.push(...(await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, j) => run(start + j)))));
    }
    return results;
  }

  const scopeOf = (i: number) => ({ merchant_id: `mer_${i % 3}`, livemode: i % 2 === 0 });

  const answers = (ids: string[]): Promise<CheckoutSessionView[]> =>
    inBatches(ids.length, 25, (i) => bus.request('sessions.get.v1', { ...scopeOf(i), session_id: ids[i] }));

  const merchantEvents = async () => (await db.query('SELECT * FROM ledger.merchant_events ORDER BY position')).rows;

  const SCOPES = [0, 1, 2, 3, 4, 5].map((i) => scopeOf(i));

  /** What GET /v1/payments and GET /v1/events answer for every merchant and mode, page after page. */
  async function listings(): Promise<unknown[]> {
    const pages: unknown[] = [];
    for (const scope of SCOPES) {
      for (const subject of ['ledger.payments.list.v1', 'ledger.merchant-events.list.v1'] as const) {
        let after: string | undefined;
        do {
          const page = await bus.request(subject, { ...scope, limit: 50, ...(after ? { starting_after: after } : {}) });
          pages.push(page);
          after = page.has_more ? page.data[page.data.length - 1].id : undefined;
        } while (after);
      }
      pages.push(await bus.request('ledger.payments.list.v1', { ...scope, limit: 50, reference: 'REF-1' }));
      pages.push(await bus.request('ledger.payments.list.v1', { ...scope, limit: 50, status: 'REQUIRES_MANUAL_REVIEW' }));
    }
    return pages;
  }

  it('answers sessions, payments and events identically after dropping and rebuilding', async () => {
    const created = await inBatches(SESSIONS, 25, (i) =>
      bus.request('sessions.create.v1', {
        ...scopeOf(i),
        body: {
          amount: 100 + i,
          currency: 'cad',
          reference: `ref-${i}`,
          success_url: 'https://shop.example/ok',
          cancel_url: 'https://shop.example/no',
          ...(i % 4 === 0 ? {} : { metadata: { i: String(i), nested: { even: i % 2 === 0 } } }),
        },
        idempotency: { key: randomUUID(), fingerprint: 'fp' },
      } as CreateCheckoutSessionCommand),
    );
    const ids = created.map((session) => session.id);

    // Payments of every kind: simulated in test mode, from e-mail in live mode, some verified by hand.
    const outcomes = ['confirmed', 'failed', 'requires_manual_review'] as const;
    await inBatches(SESSIONS / 2, 25, (k) => {
      const i = 2 * k + 1; // odd: test mode
      return bus.request('payments.simulate.v1', { ...scopeOf(i), session_id: ids[i], outcome: outcomes[k % 3], idempotency: { key: randomUUID(), fingerprint: 'fp' } });
    });
    const reviews = await inBatches(SESSIONS / 2, 25, (k) => {
      const i = 2 * k; // even: live mode
      return bus.request(
        'payments.record-transfer.v1',
        genuineTransfer(scopeOf(i).merchant_id, i % 4 === 0 ? created[i].memo : null, {
          email_id: `em_${i}`,
          amount: 100 + i,
          sender_name: `Payer ${i}`,
          sender_email: null,
          comment: `invoice ${i}`,
          reference_number: `C${i}`,
        }),
      );
    });
    const toVerify = reviews.filter((payment) => payment.status === 'REQUIRES_MANUAL_REVIEW').filter((_, j) => j % 2 === 0);
    await inBatches(toVerify.length, 20, (j) =>
      bus.request('payments.verify.v1', { merchant_id: scopeOf(Number(toVerify[j].comment!.split(' ')[1])).merchant_id, livemode: true, payment_id: toVerify[j].id, verified_by: 'usr_1' }),
    );

    const before = await answers(ids);
    const eventsBefore = await merchantEvents();
    const listingsBefore = await listings();
    expect(before.filter((session) => session.status === 'COMPLETED').length).toBeGreaterThan(SESSIONS / 5);
    expect(eventsBefore.filter((event) => event.type.startsWith('payment.')).length).toBeGreaterThan(SESSIONS / 2);

    // Damage the read models so that only a real rebuild can restore them.
    await db.query(`DELETE FROM ledger.checkout_sessions WHERE reference IN ('ref-1', 'ref-2')`);
    await db.query(`UPDATE ledger.checkout_sessions SET status = 'EXPIRED' WHERE reference = 'ref-3'`);
    await db.query('DELETE FROM ledger.merchant_events WHERE position = (SELECT min(position) FROM ledger.merchant_events)');
    await db.query(`UPDATE ledger.payments SET status = 'REFUNDED' WHERE id = (SELECT min(id) FROM ledger.payments)`);
    await db.query(`DELETE FROM ledger.payments WHERE id = (SELECT max(id) FROM ledger.payments)`);
    const { rows: counted } = await db.query('SELECT count(*)::int AS n FROM ledger.events');
    const total = counted[0].n as number;

    const { stdout } = await promisify(execFile)(process.execPath, [REBUILD], {
      env: { PATH: process.env.PATH ?? '', MIGRATION_DATABASE_URL: stack.database.ownerUrl },
    });
    expect(stdout).toMatch(/rebuilding read models: checkout_sessions, payments, merchant_events/);
    expect(stdout).toMatch(new RegExp(`${total}/${total} events \\(100%\\)`));

    expect(await answers(ids)).toEqual(before);
    expect(await merchantEvents()).toEqual(eventsBefore);
    expect(await listings()).toEqual(listingsBefore);
  });
});
