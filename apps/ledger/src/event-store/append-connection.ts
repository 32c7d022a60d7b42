import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import {
  CONFIG,
  DATABASE_CONNECT_TIMEOUT_MS,
  guardCheckedOutClients,
  JsonLogger,
  POSTGRES_KEEPALIVE,
  PreparingClient,
  SERVICE_SESSION_LIMITS,
  sessionLimitParameters,
  WARM_CONNECTIONS,
} from '@pp/platform';
import { Pool, type PoolClient } from 'pg';
import type { LedgerConfig } from '../ledger.config';

/** Where the group commit gets its connection: AppendConnection, or a test's own pool. */
export interface AppendConnectionSource {
  connect(): Promise<PoolClient>;
}

/**
 * A pool of one pipelined connection for the group commit (node-postgres
 * `pipeline`: a statement is sent without waiting for the answers to those
 * before it). One batch commits at a time, so one connection is enough, and
 * batch-append.ts sends the statements that do not need each other's answers
 * together: an append costs two round trips to Postgres, not seven.
 * Statements are prepared once, as on the service's pool (PreparingClient),
 * and the connection stays open while the ledger idles (WARM_CONNECTIONS).
 */
export const appendPool = (url: string): Pool =>
  new Pool({
    connectionString: url,
    max: 1,
    min: WARM_CONNECTIONS,
    application_name: 'ledger-append',
    ...POSTGRES_KEEPALIVE,
    connectionTimeoutMillis: DATABASE_CONNECT_TIMEOUT_MS,
    Client: PreparingClient,
    pipeline: true,
    ...sessionLimitParameters(SERVICE_SESSION_LIMITS),
  });

@Injectable()
export class AppendConnection implements AppendConnectionSource, OnApplicationShutdown {
  private readonly pool: Pool;

  constructor(@Inject(CONFIG) config: Pick<LedgerConfig, 'DATABASE_URL'>, logger: JsonLogger) {
    this.pool = appendPool(config.DATABASE_URL);
    // The server may end the idle connection (a restart, an operator): node-postgres then emits 'error' on the
    // pool, which would end the process if nobody listened. The pool drops that client, and the next batch connects anew.
    this.pool.on('error', (error) => logger.warn('the group commit connection was ended by the server; the next batch connects anew', { error: error.message }));
    // While a batch holds the connection, pg-pool does not listen for its errors: the batch's statements fail instead.
    guardCheckedOutClients(this.pool, (error) => logger.warn('the group commit connection was lost during a batch', { error: error.message }));
  }

  connect(): Promise<PoolClient> {
    return this.pool.connect();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end();
  }
}
