import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The Idempotency-Key of each creation the gateway makes itself and answers
 * with a secret shown once (an API key, a merchant with its keys and owner
 * password, a platform admin with its password), written in the creation's
 * transaction, with the keyed fingerprint of the request and what it made.
 * The Redis record of the key is settled only after the commit and may be
 * lost (a gateway that died in between, Redis losing its data); a retry that
 * then reaches the handler is refused, naming what the key made, instead of
 * minting a second secret nobody has seen. Keyed by the Redis layer's scope
 * (merchant and mode, `admin:<token id>`, `dashboard` for the console's
 * merchants; `team:<merchant id>` for team users, added later) and the key; `keyed_fingerprint` is an HMAC under a sub-key of
 * SERVER_SECRET (IdempotencyKeys.check), never a plain hash of a body that
 * may hold a password. Oldest first for the pruning past the 24 h retention.
 */
export class CreationRequests1768000000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE gateway.creation_requests (
        scope             text NOT NULL,
        idempotency_key   text NOT NULL,
        keyed_fingerprint text NOT NULL,
        operation         text NOT NULL CHECK (operation IN ('api_key', 'merchant', 'platform_admin')),
        created_id        text NOT NULL,
        created_at        timestamptz(3) NOT NULL DEFAULT now(),
        CONSTRAINT creation_requests_key PRIMARY KEY (scope, idempotency_key)
      )`);
    await db.query(`CREATE INDEX creation_requests_by_age ON gateway.creation_requests (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE gateway.creation_requests`);
  }
}
