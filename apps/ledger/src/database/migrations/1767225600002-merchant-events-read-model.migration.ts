import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Merchant-visible events (evt_…), scoped by merchant and mode, newest first by position. */
export class MerchantEventsReadModel1767225600002 implements MigrationInterface {
  name = 'MerchantEventsReadModel1767225600002';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE ledger.merchant_events (
        id          text PRIMARY KEY,
        position    bigint NOT NULL UNIQUE,
        merchant_id text NOT NULL,
        livemode    boolean NOT NULL,
        type        text NOT NULL,
        data        jsonb NOT NULL,
        stream_id   text NOT NULL,
        created_at  timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX merchant_events_listing ON ledger.merchant_events (merchant_id, livemode, position DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE ledger.merchant_events`);
  }
}
