import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row per merchant and mode that has made a webhook endpoint, locked by
 * each creation from its count of live endpoints to its insert, so creates
 * racing each other cannot pass the limit per mode together
 * (EndpointRepository.insertWithinLimit). Advisory locks are reserved for the
 * ledger and the migrations, and a row lock on the endpoints themselves
 * would not hold back an insert. Filled for the merchants that have
 * endpoints already; the others get theirs at their first creation.
 */
export class EndpointScopes1768100000000 implements MigrationInterface {
  name = 'EndpointScopes1768100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhooks.endpoint_scopes (
        merchant_id text NOT NULL,
        livemode boolean NOT NULL,
        PRIMARY KEY (merchant_id, livemode)
      )`);
    await db.query(`INSERT INTO webhooks.endpoint_scopes (merchant_id, livemode) SELECT DISTINCT merchant_id, livemode FROM webhooks.endpoints`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhooks.endpoint_scopes`);
  }
}
