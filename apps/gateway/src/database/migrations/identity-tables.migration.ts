import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Merchants, their API keys and dashboard users, and platform admins (the gateway owns identity). */
export class IdentityTables1760000000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE gateway.merchants (
        id text PRIMARY KEY,
        name text NOT NULL,
        email text NOT NULL,
        etransfer_email text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE gateway.api_keys (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES gateway.merchants (id),
        type text NOT NULL CHECK (type IN ('secret', 'restricted', 'publishable')),
        livemode boolean NOT NULL,
        key_hash bytea NOT NULL UNIQUE,
        redacted text NOT NULL,
        scopes text[] NOT NULL,
        rate_limit_per_second integer CHECK (rate_limit_per_second > 0),
        expires_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (type <> 'restricted' OR livemode)
      )`);
    await db.query(`CREATE INDEX api_keys_merchant_id ON gateway.api_keys (merchant_id)`);
    await db.query(`
      CREATE TABLE gateway.dashboard_users (
        id text PRIMARY KEY,
        merchant_id text NOT NULL REFERENCES gateway.merchants (id),
        email text NOT NULL,
        password_hash text NOT NULL,
        role text NOT NULL CHECK (role IN ('owner', 'admin')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE UNIQUE INDEX dashboard_users_email ON gateway.dashboard_users (lower(email))`);
    await db.query(`CREATE INDEX dashboard_users_merchant_id ON gateway.dashboard_users (merchant_id)`);
    await db.query(`
      CREATE TABLE gateway.platform_admins (
        id text PRIMARY KEY,
        email text NOT NULL,
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE UNIQUE INDEX platform_admins_email ON gateway.platform_admins (lower(email))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE gateway.platform_admins, gateway.dashboard_users, gateway.api_keys, gateway.merchants`);
  }
}
