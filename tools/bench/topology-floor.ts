import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { Msg, NatsConnection } from 'nats';
import { Pool } from 'pg';
import { connectNats } from '@pp/platform';
import { type ForkedServer, forkServer, listenOnLoopback, serveForked } from './forked-server';

/**
 * The create path's floor: the same three processes, two bus hops and
 * group-committed insert as gateway → sessions → ledger → Postgres, doing
 * none of the services' work (no framework, authentication, rate limit,
 * idempotency, validation, decision, projections, tracing or publication).
 * Measured beside the baseline, it says how much of the create ratio the
 * shape of the path costs by itself, and how much the services' work adds
 * (docs/PERFORMANCE.md, "The create path's floor").
 *
 * edge: HTTP, JSON body → bus request → 201 with the answer.
 * relay: bus request → bus request → answer.
 * store: the requests that arrive while an insert is under way go in the
 * next one (one statement, its own commit), then each is answered.
 */
export type FloorRole = 'edge' | 'relay' | 'store';

const BUS_TIMEOUT_MS = 10_000;

/** Subjects the harness's bus identity may use, under a namespace of the floor's own, so no service hears them. */
const subjects = (namespace: string) => ({ relay: `${namespace}.sessions.create.v1`, store: `${namespace}.ledger.append.v1` });

export interface TopologyFloor {
  url: string;
  pids: Record<FloorRole, number>;
  close(): Promise<void>;
}

/** Starts the store, the relay and the edge, each in a process of its own; `url` is the edge's. */
export async function forkTopologyFloor(databaseUrl: string, natsUrl: string): Promise<TopologyFloor> {
  const settings: FloorSettings = { databaseUrl, natsUrl, namespace: `floor${randomBytes(4).toString('hex')}` };
  const env = { BENCH_FLOOR_SETTINGS: JSON.stringify(settings) };
  const started: Partial<Record<FloorRole, ForkedServer>> = {};
  try {
    for (const role of ['store', 'relay', 'edge'] as const) started[role] = await forkServer(__filename, [role], env);
  } catch (error) {
    await Promise.all(Object.values(started).map((server) => server.close()));
    throw error;
  }
  const { edge, relay, store } = started as Record<FloorRole, ForkedServer>;
  return {
    url: edge.url,
    pids: { edge: edge.pid, relay: relay.pid, store: store.pid },
    close: async () => {
      await edge.close();
      await relay.close();
      await store.close();
    },
  };
}

async function startEdge(nc: NatsConnection, namespace: string): Promise<{ url: string; close(): Promise<void> }> {
  const subject = subjects(namespace).relay;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      JSON.parse(body.toString('utf8')); // the baseline parses its body too
      nc.request(subject, body, { timeout: BUS_TIMEOUT_MS }).then(
        (reply) => {
          // An empty answer is the store's (or the relay's) failure: counted as an error, as the chain's would be.
          if (reply.data.length === 0) return void res.writeHead(500).end();
          res.writeHead(201, { 'content-type': 'application/json' });
          res.end(reply.data);
        },
        () => res.writeHead(500).end(),
      );
    });
  });
  return { url: await listenOnLoopback(server), close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function startRelay(nc: NatsConnection, namespace: string): void {
  const { relay, store } = subjects(namespace);
  nc.subscribe(relay, {
    callback: (error, msg) => {
      if (error) return;
      nc.request(store, msg.data, { timeout: BUS_TIMEOUT_MS }).then(
        (reply) => msg.respond(reply.data),
        () => msg.respond(),
      );
    },
  });
}

async function startStore(nc: NatsConnection, namespace: string, databaseUrl: string): Promise<() => Promise<void>> {
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_floor (id text PRIMARY KEY, reference text NOT NULL, amount bigint NOT NULL, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
  );
  let waiting: Msg[] = [];
  let inserting = false;
  const insertWaiting = async (): Promise<void> => {
    inserting = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      const rows = batch.map((msg) => ({ id: randomUUID(), body: JSON.parse(Buffer.from(msg.data).toString('utf8')) as { reference: string; amount: number } }));
      try {
        await pool.query('INSERT INTO bench_floor (id, reference, amount, body) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::jsonb[])', [
          rows.map((row) => row.id),
          rows.map((row) => row.body.reference),
          rows.map((row) => row.body.amount),
          rows.map((row) => JSON.stringify(row.body)),
        ]);
        batch.forEach((msg, i) => msg.respond(JSON.stringify({ id: rows[i].id, status: 'PENDING' })));
      } catch {
        batch.forEach((msg) => msg.respond());
      }
    }
    inserting = false;
  };
  nc.subscribe(subjects(namespace).store, {
    callback: (error, msg) => {
      if (error) return;
      waiting.push(msg);
      if (!inserting) void insertWaiting();
    },
  });
  return () => pool.end();
}

export interface FloorSettings {
  databaseUrl: string;
  natsUrl: string;
  /** One subject token of the floor's own. */
  namespace: string;
}

/** Runs one role in this process (the forked entry below, or a spec); `url` is the edge's. */
export async function startFloorRole(role: FloorRole, settings: FloorSettings): Promise<{ url?: string; close(): Promise<void> }> {
  const nc = await connectNats(settings.natsUrl, `bench-floor-${role}`);
  // Subscriptions reach the server before the role says it is ready, so the first request finds its responder.
  const ready = async <T>(server: T): Promise<T> => (await nc.flush(), server);
  switch (role) {
    case 'edge': {
      const edge = await startEdge(nc, settings.namespace);
      return ready({ url: edge.url, close: async () => (await edge.close(), await nc.drain()) });
    }
    case 'relay':
      startRelay(nc, settings.namespace);
      return ready({ close: () => nc.drain() });
    case 'store': {
      const endPool = await startStore(nc, settings.namespace, settings.databaseUrl);
      return ready({ close: async () => (await nc.drain(), await endPool()) });
    }
  }
}

if (require.main === module) {
  const settings = JSON.parse(process.env.BENCH_FLOOR_SETTINGS ?? '{}') as FloorSettings;
  serveForked(startFloorRole(process.argv[2] as FloorRole, settings));
}
