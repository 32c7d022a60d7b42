import { createServer, type Server, type Socket } from 'node:net';
import { DomainError, ErrorCode } from '@pp/contracts';
import { JsonLogger } from '@pp/platform';
import { Pool } from 'pg';
import { type DataSource, QueryFailedError } from 'typeorm';
import type { GatewayConfig } from '../gateway.config';
import { generateApiKey } from './api-key';
import type { ApiKeyUsage } from './api-key-usage';
import { ApiKeyAuthenticator } from './api-key.authenticator';
import type { FailedAuthenticationBudget } from './failed-authentication.budget';
import type { Queryable } from './queryable';
import type { UnfoundKeyLookups } from './unfound-key-lookups';

/** An authenticator whose key lookups run on `db` (the cache never listens here, so every lookup reaches it). */
const authenticatorOn = (db: Queryable) =>
  new ApiKeyAuthenticator(
    db as DataSource,
    { DATABASE_URL: 'postgres://unused', API_KEY_CACHE_TTL_MS: 5_000 } as GatewayConfig,
    new JsonLogger('gateway', 'error', () => undefined),
    {} as ApiKeyUsage,
    {} as FailedAuthenticationBudget,
    {} as UnfoundKeyLookups,
  );

/** What authenticating a well-formed key comes to: the error it throws. */
const failureOf = (db: Queryable): Promise<unknown> =>
  authenticatorOn(db)
    .authenticate(generateApiKey({ type: 'secret', livemode: false }))
    .then(
      () => undefined,
      (error: unknown) => error,
    );

const unavailable = expect.objectContaining({ code: ErrorCode.ServiceUnavailable });

describe('API key authentication while the database cannot answer', () => {
  let silent: Server;
  let silentPort: number;
  const held: Socket[] = [];

  beforeAll(async () => {
    // Accepts connections and never answers: a Postgres that hangs.
    silent = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  /** node-postgres on `port`, with a short connect timeout like DATABASE_CONNECT_TIMEOUT_MS. */
  const withPool = async (port: number, run: (db: Queryable) => Promise<unknown>) => {
    const pool = new Pool({ connectionString: `postgres://gateway:secret@127.0.0.1:${port}/payments`, connectionTimeoutMillis: 200 });
    pool.on('error', () => undefined);
    try {
      return await run({ query: (sql, parameters) => pool.query(sql, parameters) as never });
    } finally {
      await pool.end();
    }
  };

  it('given Postgres refusing connections, when a key is looked up, then the answer is Service unavailable (503, Retry-After)', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    expect(await withPool(closedPort, failureOf)).toEqual(unavailable);
  });

  it('given Postgres not answering within the connect timeout, when a key is looked up, then the answer is Service unavailable', async () => {
    expect(await withPool(silentPort, failureOf)).toEqual(unavailable);
  });

  it('given the lookup ending on statement_timeout, then the answer is Service unavailable', async () => {
    const timedOut = new QueryFailedError('SELECT …', [], Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }));
    expect(await failureOf({ query: () => Promise.reject(timedOut) })).toEqual(unavailable);
  });

  it('given the statement itself failing, then its error is thrown as it is (an internal error, logged)', async () => {
    const wrong = new QueryFailedError('SELECT …', [], Object.assign(new Error('column "key_hash" does not exist'), { code: '42703' }));
    const failure = await failureOf({ query: () => Promise.reject(wrong) });
    expect(failure).toBe(wrong);
    expect(failure).not.toBeInstanceOf(DomainError);
  });
});
