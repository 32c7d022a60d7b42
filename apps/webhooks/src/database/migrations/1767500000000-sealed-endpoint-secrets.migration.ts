import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Endpoint signing secrets are stored sealed (AES-256-GCM under
 * WEBHOOK_SECRET_KEYS, `v1:<key id>:…`), never as issued. The columns are
 * renamed so no code can read a sealed value as a secret, and a check refuses
 * any new or updated row that is not sealed. On a table that already holds
 * rows it stays NOT VALID, because rows written before this migration hold
 * plaintext: the service seals them at boot (EndpointSecretResealer), and the
 * service's role cannot ALTER the table, so an operator may VALIDATE it later
 * as the owner; new and updated rows are checked either way.
 */
export class SealedEndpointSecrets1767500000000 implements MigrationInterface {
  name = 'SealedEndpointSecrets1767500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.endpoints RENAME COLUMN secret TO secret_sealed`);
    await db.query(`ALTER TABLE webhooks.endpoints RENAME COLUMN previous_secret TO previous_secret_sealed`);
    await db.query(`
      ALTER TABLE webhooks.endpoints ADD CONSTRAINT endpoints_secrets_sealed
        CHECK (secret_sealed LIKE 'v1:%' AND (previous_secret_sealed IS NULL OR previous_secret_sealed LIKE 'v1:%')) NOT VALID`);
    const [{ empty }] = await db.query(`SELECT NOT EXISTS (SELECT 1 FROM webhooks.endpoints) AS empty`);
    if (empty) await db.query(`ALTER TABLE webhooks.endpoints VALIDATE CONSTRAINT endpoints_secrets_sealed`);
  }

  /** Puts the old shape back; the values stay sealed (opening them needs the service's keys). */
  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhooks.endpoints DROP CONSTRAINT endpoints_secrets_sealed`);
    await db.query(`ALTER TABLE webhooks.endpoints RENAME COLUMN previous_secret_sealed TO previous_secret`);
    await db.query(`ALTER TABLE webhooks.endpoints RENAME COLUMN secret_sealed TO secret`);
  }
}
