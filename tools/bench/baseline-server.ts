import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { type ForkedServer, forkServer, listenOnLoopback, serveForked } from './forked-server';

/**
 * The yardstick for PRODUCT-RULES §D6: the least a create-session endpoint could
 * do in one process — parse the JSON body, one INSERT (its own commit), answer
 * 201. The gateway → sessions → ledger path must reach at least its req/s.
 */
export async function startBaselineServer(databaseUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  // idleTimeoutMillis 0: pg-pool closes a connection idle for 10 s by default, and the baseline idles longer than
  // that between its windows (the create rows before "baseline again", the chain's windows and quiet waits
  // between interleaved ones), so each such window began by reconnecting, work the first window never paid.
  const pool = new Pool({ connectionString: databaseUrl, max: 20, idleTimeoutMillis: 0 });
  // An idle connection's error (Postgres restarted, the connection cut) is the pool's to report: unhandled, it
  // would end the process, and the bench would see the baseline stop answering instead of why.
  pool.on('error', (error) => process.stderr.write(`bench baseline: an idle Postgres connection failed: ${error.message}\n`));
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_baseline (id text PRIMARY KEY, reference text NOT NULL, amount bigint NOT NULL, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
  );
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { reference: string; amount: number };
      const id = randomUUID();
      pool.query('INSERT INTO bench_baseline (id, reference, amount, body) VALUES ($1, $2, $3, $4)', [id, body.reference, body.amount, body]).then(
        () => {
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id, status: 'PENDING' }));
        },
        () => {
          res.writeHead(500).end();
        },
      );
    });
  });
  return {
    url: await listenOnLoopback(server),
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await pool.end();
    },
  };
}

/** The baseline in a process of its own (forkServer). */
export const forkBaselineServer = (databaseUrl: string): Promise<ForkedServer> =>
  forkServer(__filename, [], { BENCH_BASELINE_DATABASE_URL: databaseUrl });

if (require.main === module) serveForked(startBaselineServer(process.env.BENCH_BASELINE_DATABASE_URL ?? ''));
