import type { Pool } from 'pg';

/**
 * Keeps a lost connection from ending the process while a caller holds it.
 *
 * pg-pool listens for errors only on idle clients: a client that is checked
 * out (pool.connect(), until release) has no 'error' listener of the pool's,
 * and node-postgres emits one when its socket fails. Unheard, that event ends
 * the process. Seen in CI: Postgres ended the ledger's group-commit connection
 * just before a batch took it from the pool, and the reset socket's error
 * arrived while the batch held it.
 *
 * With this listener the loss is only reported: the statements in flight
 * were already rejected with it, and node-postgres marks the client
 * unqueryable, so the holder's next statement fails and pg-pool discards the
 * client when it comes back. TypeORM's query runners add a listener of their
 * own; a pool whose clients are checked out by hand needs this one.
 */
export function guardCheckedOutClients(pool: Pool, onLost: (error: Error) => void): Pool {
  pool.on('acquire', (client) => client.on('error', onLost));
  pool.on('release', (_error, client) => client.removeListener('error', onLost));
  return pool;
}
