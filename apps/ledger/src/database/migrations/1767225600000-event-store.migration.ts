import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The event store (PRODUCT-RULES §D2): insert-only, enforced by Postgres itself.
 * `transaction_id` lets the publisher read only rows of surely finished
 * transactions (below pg_snapshot_xmin), so it never skips an event whose
 * transaction commits after a later position's.
 */
export class EventStore1767225600000 implements MigrationInterface {
  name = 'EventStore1767225600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE ledger.events (
        position       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id             text NOT NULL UNIQUE,
        stream_id      text NOT NULL,
        version        integer NOT NULL CHECK (version > 0),
        type           text NOT NULL,
        schema_version smallint NOT NULL CHECK (schema_version > 0),
        data           jsonb NOT NULL,
        metadata       jsonb NOT NULL,
        transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
        created_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT events_stream_version_key UNIQUE (stream_id, version)
      )`);
    await db.query(`CREATE INDEX events_publication_order ON ledger.events (transaction_id, position)`);

    await db.query(`
      CREATE FUNCTION ledger.reject_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'ledger.events is insert-only: % is not allowed', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await db.query(`
      CREATE TRIGGER events_insert_only BEFORE UPDATE OR DELETE ON ledger.events
      FOR EACH ROW EXECUTE FUNCTION ledger.reject_event_change()`);
    await db.query(`
      CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON ledger.events
      FOR EACH STATEMENT EXECUTE FUNCTION ledger.reject_event_change()`);
    // The migrating role owns the table; it gives up the rights no one must use.
    // (A superuser ignores privileges: the triggers above still stop it.)
    await db.query(`REVOKE UPDATE, DELETE, TRUNCATE ON ledger.events FROM PUBLIC, CURRENT_USER`);

    // Idempotency keys recorded with the append that used them (PRODUCT-RULES §D3).
    await db.query(`
      CREATE TABLE ledger.idempotency_keys (
        merchant_id   text NOT NULL,
        livemode      boolean NOT NULL,
        key           text NOT NULL,
        fingerprint   text NOT NULL,
        stream_id     text NOT NULL,
        first_version integer NOT NULL,
        last_version  integer NOT NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (merchant_id, livemode, key)
      )`);

    // Where the JetStream publisher has got to, on the (transaction_id, position) order.
    await db.query(`
      CREATE TABLE ledger.publication_checkpoints (
        publisher      text PRIMARY KEY,
        transaction_id xid8 NOT NULL,
        position       bigint NOT NULL,
        updated_at     timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE ledger.publication_checkpoints`);
    await db.query(`DROP TABLE ledger.idempotency_keys`);
    await db.query(`DROP TABLE ledger.events`);
    await db.query(`DROP FUNCTION ledger.reject_event_change()`);
  }
}
