import { type AppendStreamsRequest, DomainError, ErrorCode, REFUND_OPEN_RULE, type RefundEvent, RefundEventType, refundStreamId } from '@pp/contracts';
import { createTestDatabase, type TestDatabase, testPool, waitFor } from '@pp/testing';
import type { Pool, PoolClient } from 'pg';
import { EventStore } from '../event-store/event-store';
import { eventInserts, insertEventsAtExpectedVersions } from '../event-store/insert-events';
import { toStoredEvent } from '../event-store/stored-event.row';
import { LEDGER_PROJECTIONS } from '../projections/ledger.projections';
import { project } from '../projections/projection';
import { rebuildReadModels } from '../projections/rebuild-read-models';

const SCOPE = { merchant_id: 'mer_order', livemode: true };
const PAYMENT = 'txn_order_1';
const AT = '2026-03-01T12:00:00.000Z';

const requested = (refundId: string): RefundEvent => ({
  type: RefundEventType.Requested,
  schema_version: 1,
  data: { refund_id: refundId, payment_id: PAYMENT, merchant_id: SCOPE.merchant_id, livemode: true, amount: 1500, requested_by: 'usr_1', reason: null, requested_at: AT },
});

const appendOf = (refundId: string, expectedVersion: number, event: RefundEvent): AppendStreamsRequest => ({
  streams: [{ stream_id: refundStreamId(refundId), expected_version: expectedVersion, events: [event] }],
  metadata: SCOPE,
});

/*
 * A refund request and another refund's cancellation write different streams,
 * so no stream lock orders them. The request can take the lower position and
 * still pass the one-refund-per-payment index, by waiting on the cancellation's
 * uncommitted row until it commits. A rebuild replays by position: it must not
 * refuse what the live ledger accepted.
 */
describe('rebuilding refunds whose request precedes, by position, the cancellation that freed its payment', () => {
  let database: TestDatabase;
  let ledger: Pool;
  let owner: Pool;
  let admin: Pool;
  const store = new EventStore(LEDGER_PROJECTIONS);

  beforeAll(async () => {
    database = await createTestDatabase('refundorder');
    await database.migrate('ledger');
    ledger = testPool(database.serviceUrl('ledger'));
    owner = testPool(database.ownerUrl);
    admin = testPool(database.url);
  });
  afterAll(async () => {
    await Promise.all([ledger?.end(), owner?.end(), admin?.end()]);
    await database?.drop();
  });

  const readModel = async () => (await admin.query('SELECT * FROM ledger.refunds ORDER BY id')).rows;
  const indexes = async () =>
    (await admin.query(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'ledger' ORDER BY indexname`)).rows;
  const positionOf = async (streamId: string, type: string) =>
    Number((await admin.query(`SELECT position FROM ledger.events WHERE stream_id = $1 AND type = $2`, [streamId, type])).rows[0].position);

  async function inTransaction<T>(client: PoolClient, work: () => Promise<T>): Promise<T> {
    await client.query('BEGIN');
    try {
      const result = await work();
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  }

  it('rebuilds the read model the live appends left, and the rule holds again after it', async () => {
    const [r1, r2, r3] = ['rf_order_1', 'rf_order_2', 'rf_order_3'];
    const setup = await ledger.connect();
    await inTransaction(setup, () => store.appendStreams(setup, appendOf(r1, 0, requested(r1)), {}));
    setup.release();

    // R2's request takes its position first (as the group commit inserts the events before the projections run)...
    const a = await ledger.connect();
    const b = await ledger.connect();
    try {
      await a.query('BEGIN');
      const inserted = (await insertEventsAtExpectedVersions(a, eventInserts(appendOf(r2, 0, requested(r2)).streams, SCOPE))).map(toStoredEvent);
      // ...then R1's cancellation takes a later one and updates R1's row, uncommitted...
      await b.query('BEGIN');
      const cancelled: RefundEvent = { type: RefundEventType.Cancelled, schema_version: 1, data: { refund_id: r1, cancelled_by: 'usr_1', cancelled_at: AT } };
      await store.appendStreams(b, appendOf(r1, 1, cancelled), {});
      // ...so R2's row waits on R1's, and goes in once the cancellation commits.
      const projected = project(a, LEDGER_PROJECTIONS, inserted);
      await waitFor('R2 waiting on the cancellation', async () => {
        const { rows } = await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        return rows[0].n === 1;
      });
      await b.query('COMMIT');
      await projected;
      await a.query('COMMIT');
    } finally {
      a.release();
      b.release();
    }
    expect(await positionOf(refundStreamId(r2), RefundEventType.Requested)).toBeLessThan(await positionOf(refundStreamId(r1), RefundEventType.Cancelled));
    const live = await readModel();
    expect(live.map((row) => [row.id, row.status])).toEqual([
      [r1, 'CANCELLED'],
      [r2, 'REQUESTED'],
    ]);
    const indexesBefore = await indexes();

    await admin.query(`UPDATE ledger.refunds SET status = 'FAILED' WHERE id = $1`, [r2]); // damaged: only a real rebuild restores it
    const progress = await rebuildReadModels(owner, LEDGER_PROJECTIONS, () => undefined);

    expect(progress).toEqual({ done: 3, total: 3 });
    expect(await readModel()).toEqual(live);
    expect(await indexes()).toEqual(indexesBefore);
    // The rule is back in force: a third refund of the payment is refused while R2 is open.
    const c = await ledger.connect();
    try {
      const refused = await inTransaction(c, () => store.appendStreams(c, appendOf(r3, 0, requested(r3)), {})).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DomainError);
      expect(refused).toMatchObject({ code: ErrorCode.Conflict, details: { rule: REFUND_OPEN_RULE } });
    } finally {
      c.release();
    }
  });

  it('changes nothing when the final state breaks a unique rule', async () => {
    const before = await readModel();
    const indexesBefore = await indexes();
    // Events no live append could have committed together: two refunds open on one payment.
    await admin.query(
      `INSERT INTO ledger.events (id, stream_id, version, type, schema_version, data, metadata)
       VALUES ('evt_order_forged', $1, 1, $2, 1, $3, $4)`,
      [refundStreamId('rf_order_forged'), RefundEventType.Requested, JSON.stringify(requested('rf_order_forged').data), JSON.stringify(SCOPE)],
    );
    await expect(rebuildReadModels(owner, LEDGER_PROJECTIONS, () => undefined)).rejects.toThrow(/refunds_one_per_payment/);
    expect(await readModel()).toEqual(before);
    expect(await indexes()).toEqual(indexesBefore);
  });
});
