import {
  type AppendStreamsRequest,
  CheckoutSessionEventType,
  checkoutSessionStreamId,
  type Event,
  PaymentEventType,
  type PaymentRecordedV1,
  RefundEventType,
  refundStreamId,
  type SessionCreatedV1,
  transactionStreamId,
} from '@pp/contracts';
import { JsonLogger, ServiceMetrics } from '@pp/platform';
import { createTestDatabase, type TestDatabase, testPool, waitFor } from '@pp/testing';
import { Client, Pool } from 'pg';
import { AppendMetrics } from '../event-store/append.metrics';
import { EventStore } from '../event-store/event-store';
import { GroupCommitAppender } from '../event-store/group-commit.appender';
import { LocalCommits } from '../event-store/local-commits';
import { takeAppendLocks } from '../event-store/stream-locks';
import type { LedgerConfig } from '../ledger.config';
import { LEDGER_PROJECTIONS } from './ledger.projections';
import { rebuildReadModels } from './rebuild-read-models';

const SCOPE = { merchant_id: 'mer_rebuildlock', livemode: true };
const AT = '2026-01-01T00:00:00.000Z';

const recorded = (paymentId: string, status: PaymentRecordedV1['status']): AppendStreamsRequest => {
  const data: PaymentRecordedV1 = {
    payment_id: paymentId,
    ...SCOPE,
    session_id: null,
    session_reference: null,
    session_metadata: null,
    etransfer_ref: null,
    amount: 2500,
    sender_name: 'Payer',
    sender_email: null,
    comment: null,
    status,
    verification_method: 'AUTO_EMAIL',
    review_reasons: status === 'REQUIRES_MANUAL_REVIEW' ? ['UNKNOWN_MEMO'] : [],
    source: 'email',
    email_id: `em_${paymentId}`,
    reference_number: null,
    created_at: AT,
  };
  return { streams: [{ stream_id: transactionStreamId(paymentId), expected_version: 0, events: [{ type: PaymentEventType.Recorded, schema_version: 1, data }] }], metadata: SCOPE };
};

const refundRequested = (refundId: string, paymentId: string): AppendStreamsRequest => ({
  streams: [
    {
      stream_id: refundStreamId(refundId),
      expected_version: 0,
      events: [
        {
          type: RefundEventType.Requested,
          schema_version: 1,
          data: { refund_id: refundId, payment_id: paymentId, ...SCOPE, amount: 2500, requested_by: 'usr_1', reason: null, requested_at: AT },
        },
      ],
    },
  ],
  metadata: SCOPE,
});

const verified = (paymentId: string): AppendStreamsRequest => ({
  streams: [
    {
      stream_id: transactionStreamId(paymentId),
      expected_version: 1,
      events: [{ type: PaymentEventType.Verified, schema_version: 1, data: { payment_id: paymentId, verified_by: 'usr_1', verified_at: AT } }],
    },
  ],
  metadata: SCOPE,
});

const sessionCreated = (sessionId: string): AppendStreamsRequest => {
  const data: SessionCreatedV1 = {
    session_id: sessionId,
    ...SCOPE,
    amount: 1500,
    currency: 'CAD',
    reference: `ref-${sessionId}`,
    memo: `MEMO-${sessionId}`,
    client_secret: `${sessionId}_secret_x`,
    success_url: 'https://shop.example/ok',
    cancel_url: 'https://shop.example/no',
    metadata: null,
    created_at: AT,
    expires_at: '2026-01-01T00:30:00.000Z',
  };
  const event: Event = { type: CheckoutSessionEventType.Created, schema_version: 1, data };
  return { streams: [{ stream_id: checkoutSessionStreamId(sessionId), expected_version: 0, events: [event] }], metadata: SCOPE };
};

/*
 * `ledger:rebuild` while the ledger appends. The rebuild locks the read-model
 * tables one after another; an append transaction that goes one append at a
 * time (a group-commit batch's fallback) writes them in event order, so a
 * rebuild started between a refund's append and a payment's could hold
 * payments while waiting for refunds, and the append then wait for payments:
 * Postgres aborted one of them (40P01). The read models' advisory lock
 * (read-models-lock.ts) makes the rebuild wait for the append transaction,
 * whole, and the appends wait for the rebuild, whole.
 */
describe('rebuilding the read models beside live appends', () => {
  let database: TestDatabase;
  /** The superuser's, to watch the locks. */
  let db: Pool;
  /** The rebuild's: the owner, as `npm run ledger:rebuild` connects. */
  let owner: Pool;
  /** An append transaction of the ledger's role, driven statement by statement. */
  let ledger: Client;
  let appendPool: Pool;
  let appender: GroupCommitAppender;
  const store = new EventStore(LEDGER_PROJECTIONS);

  beforeAll(async () => {
    database = await createTestDatabase('rebuildlock');
    await database.migrate('ledger');
    db = testPool(database.url, 2);
    owner = new Pool({ connectionString: database.ownerUrl, max: 1, application_name: 'ledger-rebuild' });
    ledger = new Client({ connectionString: database.serviceUrl('ledger'), application_name: 'ledger-held' });
    await ledger.connect();
    // As the service's group commit (append-connection.ts), as the ledger's role.
    appendPool = new Pool({ connectionString: database.serviceUrl('ledger'), max: 1, pipeline: true, application_name: 'ledger-append' });
    appendPool.on('error', () => undefined);
    const config = { LEDGER_APPEND_BATCH_MAX: 200, LEDGER_TEST_CRASH_AFTER_COMMIT: false } as LedgerConfig;
    const metrics = new AppendMetrics(new ServiceMetrics('ledger', { processMetrics: false }));
    appender = new GroupCommitAppender(appendPool, store, config, new JsonLogger('ledger-test', 'error', () => undefined), metrics, new LocalCommits());
  });
  afterAll(async () => {
    await Promise.all([ledger?.end(), owner?.end(), appendPool?.end(), db?.end()]);
    await database?.drop();
  });

  /** What the backend of `application` waits for: a lock's type, or undefined while it runs or idles. */
  const lockAwaited = async (application: string): Promise<string | undefined> =>
    (
      await db.query<{ locktype: string }>(
        `SELECT l.locktype FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE a.datname = current_database() AND a.application_name = $1 AND NOT l.granted`,
        [application],
      )
    ).rows[0]?.locktype;

  /** One transaction of the ledger's role, as a batch's one-at-a-time fallback runs it: its locks first, then each append in turn. */
  async function inAppendTransaction(requests: AppendStreamsRequest[], between: (index: number) => Promise<void>): Promise<void> {
    await ledger.query('BEGIN');
    try {
      await takeAppendLocks(ledger, requests);
      for (const [index, request] of requests.entries()) {
        if (index > 0) await between(index);
        await store.appendStreams(ledger, request, {});
      }
      await ledger.query('COMMIT');
    } catch (error) {
      await ledger.query('ROLLBACK');
      throw error;
    }
  }

  it("given an append transaction that has written a refund, when a rebuild starts and the transaction then writes a payment, then both commit, the rebuild after the transaction", async () => {
    await inAppendTransaction([recorded('txn_rl_paid', 'CONFIRMED'), recorded('txn_rl_held', 'REQUIRES_MANUAL_REVIEW')], async () => undefined);

    let rebuilt: ReturnType<typeof rebuildReadModels> | undefined;
    await inAppendTransaction([refundRequested('rf_rl_1', 'txn_rl_paid'), verified('txn_rl_held')], async () => {
      rebuilt = rebuildReadModels(owner, LEDGER_PROJECTIONS, () => undefined);
      rebuilt.catch(() => undefined); // awaited below; a deadlock victim must not go unhandled meanwhile
      await waitFor('the rebuild to wait for the append transaction', () => lockAwaited('ledger-rebuild'));
    });

    expect(await rebuilt).toEqual({ done: 4, total: 4 });
    const { rows: payments } = await db.query('SELECT id, status FROM ledger.payments ORDER BY id');
    expect(payments).toEqual([
      { id: 'txn_rl_held', status: 'CONFIRMED' },
      { id: 'txn_rl_paid', status: 'CONFIRMED' },
    ]);
    const { rows: refunds } = await db.query('SELECT id, payment_id, status FROM ledger.refunds');
    expect(refunds).toEqual([{ id: 'rf_rl_1', payment_id: 'txn_rl_paid', status: 'REQUESTED' }]);
  });

  it('given a rebuild under way, when the group commit appends, then its batch waits on the read models’ lock before projecting, and commits into the rebuilt tables', async () => {
    // A long read of refunds holds the rebuild midway: its advisory lock and the first tables' locks taken, refunds' awaited.
    const reader = await db.connect();
    let appended: Promise<unknown> | undefined;
    try {
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM ledger.refunds');
      const rebuilt = rebuildReadModels(owner, LEDGER_PROJECTIONS, () => undefined);
      rebuilt.catch(() => undefined); // awaited below
      expect(await waitFor('the rebuild to wait for the read of refunds', () => lockAwaited('ledger-rebuild'))).toBe('relation');

      appended = appender.appendStreams(sessionCreated('cs_rl_1'), {});
      expect(await waitFor('the batch to wait', () => lockAwaited('ledger-append'))).toBe('advisory');
      const { rows: tablesTouched } = await db.query(
        `SELECT l.relation::regclass::text AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE a.datname = current_database() AND a.application_name = 'ledger-append' AND l.locktype = 'relation'
            AND l.relation::regclass::text IN ('ledger.checkout_sessions', 'ledger.payments', 'ledger.merchant_events', 'ledger.refunds')`,
      );
      expect(tablesTouched).toEqual([]);

      await reader.query('COMMIT');
      expect(await rebuilt).toEqual({ done: 4, total: 4 });
      await appended;
    } finally {
      await reader.query('ROLLBACK').catch(() => undefined);
      reader.release();
      await appended?.catch(() => undefined);
    }
    const { rows } = await db.query(`SELECT id FROM ledger.checkout_sessions`);
    expect(rows).toEqual([{ id: 'cs_rl_1' }]);
  });
});
