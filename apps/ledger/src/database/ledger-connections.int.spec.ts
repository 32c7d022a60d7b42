import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CONFIG, HealthService, SERVICE_SESSION_LIMITS, type SessionLimits } from '@pp/platform';
import { DatabaseModule } from '@pp/platform/typeorm';
import { createTestDatabase, type TestDatabase } from '@pp/testing';
import { DataSource } from 'typeorm';
import { appendPool } from '../event-store/append-connection';
import { leaderIdleLimitMs, publisherConnection } from '../publication/event-publisher';
import { LedgerDatabase } from './ledger.database';

/** The session's limits as Postgres reports them, in milliseconds. */
const limitsOf = async (query: (sql: string) => Promise<Array<{ statement: string; idle: string }>>) => {
  const [{ statement, idle }] = await query(
    `SELECT max(setting) FILTER (WHERE name = 'statement_timeout') AS statement,
            max(setting) FILTER (WHERE name = 'idle_in_transaction_session_timeout') AS idle
     FROM pg_settings WHERE name IN ('statement_timeout', 'idle_in_transaction_session_timeout')`,
  );
  return { statementTimeoutMs: Number(statement), idleInTransactionTimeoutMs: Number(idle) };
};

/** What Postgres applies, and the client's own answer deadline (node-postgres's query_timeout), of a connected client. */
const limitsWith = async (client: object, serverLimits: Promise<Omit<SessionLimits, 'answerTimeoutMs'>>): Promise<SessionLimits> => ({
  ...(await serverLimits),
  answerTimeoutMs: (client as { connectionParameters: { query_timeout: number } }).connectionParameters.query_timeout,
});

/*
 * Every connection the ledger opens for its own work carries a service's
 * session limits (libs/platform session-limits.ts): its pool, its group
 * commit and its publisher. Without them a ledger replica that froze inside
 * a batch would hold that batch's stream locks until its process died, and
 * every other replica's batch on those streams would wait as long.
 */
describe("the ledger's connections: a service's session limits", () => {
  let database: TestDatabase;
  const config = { DATABASE_URL: '', DATABASE_POOL_SIZE: 1 };

  @Global()
  @Module({
    providers: [
      { provide: CONFIG, useValue: config },
      { provide: HealthService, useValue: new HealthService('ledger') },
    ],
    exports: [CONFIG, HealthService],
  })
  class PlatformForTest {}

  beforeAll(async () => {
    database = await createTestDatabase('ledgerconnections');
    await database.migrate('ledger');
    config.DATABASE_URL = database.serviceUrl('ledger');
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('the service pool (DatabaseModule)', async () => {
    @Module({ imports: [PlatformForTest, DatabaseModule.forService(LedgerDatabase)] })
    class LedgerDatabaseOnly {}
    const app = await NestFactory.createApplicationContext(LedgerDatabaseOnly, { logger: false });
    try {
      const runner = app.get(DataSource).createQueryRunner();
      try {
        const client = await runner.connect();
        expect(await limitsWith(client, limitsOf((sql) => runner.query(sql)))).toEqual(SERVICE_SESSION_LIMITS);
      } finally {
        await runner.release();
      }
    } finally {
      await app.close();
    }
  });

  it('the group commit (appendPool)', async () => {
    const pool = appendPool(config.DATABASE_URL);
    try {
      const client = await pool.connect();
      try {
        expect(await limitsWith(client, limitsOf(async (sql) => (await client.query<{ statement: string; idle: string }>(sql)).rows))).toEqual(SERVICE_SESSION_LIMITS);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  it('the publisher (publisherConnection), whose session Postgres also ends when it idles far longer than a live leader does', async () => {
    const client = publisherConnection(config.DATABASE_URL, 1000);
    await client.connect();
    try {
      expect(await limitsWith(client, limitsOf(async (sql) => (await client.query<{ statement: string; idle: string }>(sql)).rows))).toEqual(SERVICE_SESSION_LIMITS);
      const { rows } = await client.query<{ setting: string }>(`SELECT setting FROM pg_settings WHERE name = 'idle_session_timeout'`);
      expect(Number(rows[0].setting)).toBe(leaderIdleLimitMs(1000));
      expect(leaderIdleLimitMs(1000)).toBe(15_000);
      expect(leaderIdleLimitMs(60_000)).toBe(180_000);
    } finally {
      await client.end();
    }
  });
});
