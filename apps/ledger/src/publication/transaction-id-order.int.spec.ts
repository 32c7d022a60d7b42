import { createTestDatabase, type TestDatabase } from '@pp/testing';
import { Client } from 'pg';
import { randomUUID } from 'node:crypto';
import { assertTransactionIdsAhead, TransactionIdsBehind } from './transaction-id-order';

/** One epoch (2^32 ids) above the cluster's next transaction id: what the ids of a restored dump look like to a fresh cluster. */
const AHEAD_SQL = `(pg_snapshot_xmax(pg_current_snapshot())::text::numeric + 4294967296)::text::xid8`;

/*
 * After a logical restore into another cluster, the event store's rows and
 * checkpoint keep the old cluster's transaction ids while the new one counts
 * from its own, lower. The restore is simulated on the real Postgres, each
 * time in a transaction rolled back after the check: an event row or the
 * checkpoint given an id far above the cluster's.
 */
describe('transaction ids against those the event store holds', () => {
  let database: TestDatabase;
  let db: Client;
  let other: Client;

  beforeAll(async () => {
    database = await createTestDatabase('xidorder');
    await database.migrate('ledger');
    db = new Client({ connectionString: database.url });
    other = new Client({ connectionString: database.url });
    await Promise.all([db.connect(), other.connect()]);
  });
  afterAll(async () => {
    await Promise.all([db?.end(), other?.end()]);
    await database?.drop();
  });

  const insertEvent = (client: Client, transactionId?: string) =>
    client.query(
      `INSERT INTO ledger.events (id, stream_id, version, type, schema_version, data, metadata, transaction_id)
       VALUES ($1, $1, 1, 'test.xid', 1, '{}', '{"merchant_id":"mer_xid","livemode":false}', coalesce(${transactionId ?? 'NULL'}, pg_current_xact_id()))`,
      [`evt_${randomUUID()}`],
    );
  const failureOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

  /** Runs `work` and the check in one transaction, then rolls it back: the database is left as it was. */
  async function checkedWithin(work: () => Promise<unknown>): Promise<unknown> {
    await db.query('BEGIN');
    try {
      await work();
      return await failureOf(assertTransactionIdsAhead(db));
    } finally {
      await db.query('ROLLBACK');
    }
  }

  it('passes on an empty event store, and on one whose events and checkpoint came from this cluster', async () => {
    await assertTransactionIdsAhead(db);
    await insertEvent(db);
    await db.query(`INSERT INTO ledger.publication_checkpoints (publisher, transaction_id, position) SELECT 'jetstream', transaction_id, position FROM ledger.events`);
    await assertTransactionIdsAhead(db);
  });

  it('passes while a transaction older than the newest event is still open elsewhere (the snapshot xmin is then below it)', async () => {
    await other.query('BEGIN');
    try {
      await other.query('SELECT pg_current_xact_id()'); // holds xmin back
      await insertEvent(db);
      await assertTransactionIdsAhead(db);
    } finally {
      await other.query('ROLLBACK');
    }
  });

  it('refuses, naming both ids and the epoch pg_resetwal must set, when an event row is above the next transaction id', async () => {
    const failure = await checkedWithin(() => insertEvent(db, AHEAD_SQL));
    expect(failure).toBeInstanceOf(TransactionIdsBehind);
    const { next, highest, message } = failure as TransactionIdsBehind;
    expect(BigInt(highest)).toBeGreaterThan(BigInt(next));
    expect(message).toContain(`next transaction id (${next}) is not above the highest the event store holds (${highest})`);
    expect(message).toContain(`pg_resetwal -e ${(BigInt(highest) >> 32n) + 1n} <data directory>`);
  });

  it('refuses when only the checkpoint is above the next transaction id', async () => {
    const failure = await checkedWithin(() =>
      db.query(
        `INSERT INTO ledger.publication_checkpoints (publisher, transaction_id, position) VALUES ('jetstream', ${AHEAD_SQL}, 1)
         ON CONFLICT (publisher) DO UPDATE SET transaction_id = excluded.transaction_id`,
      ),
    );
    expect(failure).toBeInstanceOf(TransactionIdsBehind);
  });
});
