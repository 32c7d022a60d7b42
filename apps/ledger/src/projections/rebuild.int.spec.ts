import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CheckoutSessionView, CreateCheckoutSessionCommand } from '@pp/contracts';
import { BusClient } from '@pp/platform';
import { REPO_ROOT, TestStack, testInfra } from '@pp/testing';
import { connect, type NatsConnection } from 'nats';
import { Client } from 'pg';

const REBUILD = join(REPO_ROOT, 'dist', 'apps', 'ledger', 'src', 'rebuild.js');
const SESSIONS = 300;

describe('rebuilding the read models from the event store', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let bus: BusClient;
  let db: Client;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['ledger', 'sessions'], label: 'rebuild' });
    nc = await connect({ servers: testInfra.natsUrl });
    bus = new BusClient(nc, stack.namespace, 20_000);
    db = new Client({ connectionString: stack.database.url });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await nc?.close();
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

  it('answers sessions.get.v1 identically after dropping and rebuilding', async () => {
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
    await inBatches(SESSIONS / 5, 20, (k) => bus.request('sessions.complete.v1', { ...scopeOf(k * 5), session_id: ids[k * 5] }));

    const before = await answers(ids);
    const eventsBefore = await merchantEvents();
    expect(before.filter((session) => session.status === 'COMPLETED')).toHaveLength(SESSIONS / 5);
    expect(eventsBefore).toHaveLength(SESSIONS / 5);

    // Damage the read models so that only a real rebuild can restore them.
    await db.query(`DELETE FROM ledger.checkout_sessions WHERE reference IN ('ref-1', 'ref-2')`);
    await db.query(`UPDATE ledger.checkout_sessions SET status = 'EXPIRED' WHERE reference = 'ref-3'`);
    await db.query('DELETE FROM ledger.merchant_events WHERE position = (SELECT min(position) FROM ledger.merchant_events)');

    const { stdout } = await promisify(execFile)(process.execPath, [REBUILD], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: stack.database.url },
    });
    expect(stdout).toMatch(/rebuilding read models: checkout_sessions, merchant_events/);
    expect(stdout).toMatch(new RegExp(`${SESSIONS + 2 * (SESSIONS / 5)}/${SESSIONS + 2 * (SESSIONS / 5)} events \\(100%\\)`));

    expect(await answers(ids)).toEqual(before);
    expect(await merchantEvents()).toEqual(eventsBefore);
  });
});
