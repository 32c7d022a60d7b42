import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { NatsConnection } from 'nats';
import { connectNats } from '@pp/platform';
import { type CreationBody, FLOOR_BUS_TIMEOUT_MS, type FloorFramework, type FloorSettings, floorSubjects, openGroupInsert, type StartedRole } from './floor-parts';
import { type ForkedServer, forkServer, listenOnLoopback, serveForked } from './forked-server';
import { startNestEdge, startNestRelay, startNestStore } from './topology-floor-nest';

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
 *
 * Two frameworks: 'plain' (node:http and nats.js alone), and 'nest', the
 * same roles as NestJS applications (topology-floor-nest.ts), whose
 * difference from the plain floor is what the services' framework costs.
 */
export type FloorRole = 'edge' | 'relay' | 'store';

export interface TopologyFloor {
  url: string;
  pids: Record<FloorRole, number>;
  close(): Promise<void>;
}

/** Starts the store, the relay and the edge, each in a process of its own; `url` is the edge's. */
export async function forkTopologyFloor(databaseUrl: string, natsUrl: string, framework: FloorFramework): Promise<TopologyFloor> {
  const settings: FloorSettings = { databaseUrl, natsUrl, namespace: `floor${randomBytes(4).toString('hex')}`, framework };
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

async function startEdge(nc: NatsConnection, { namespace }: FloorSettings): Promise<StartedRole> {
  const subject = floorSubjects(namespace).relay;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      JSON.parse(body.toString('utf8')); // the baseline parses its body too
      nc.request(subject, body, { timeout: FLOOR_BUS_TIMEOUT_MS }).then(
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

async function startRelay(nc: NatsConnection, { namespace }: FloorSettings): Promise<StartedRole> {
  const { relay, store } = floorSubjects(namespace);
  nc.subscribe(relay, {
    callback: (error, msg) => {
      if (error) return;
      nc.request(store, msg.data, { timeout: FLOOR_BUS_TIMEOUT_MS }).then(
        (reply) => msg.respond(reply.data),
        () => msg.respond(),
      );
    },
  });
  return { close: async () => undefined };
}

async function startStore(nc: NatsConnection, { namespace, databaseUrl }: FloorSettings): Promise<StartedRole> {
  const rows = await openGroupInsert(databaseUrl);
  nc.subscribe(floorSubjects(namespace).store, {
    callback: (error, msg) => {
      if (error) return;
      rows.insert(JSON.parse(Buffer.from(msg.data).toString('utf8')) as CreationBody).then(
        (row) => msg.respond(JSON.stringify(row)),
        () => msg.respond(),
      );
    },
  });
  return { close: () => rows.close() };
}

/** Each framework's roles, started on the role's own bus connection; the edge's `url` is where the load goes. */
const ROLES: Record<FloorFramework, Record<FloorRole, (nc: NatsConnection, settings: FloorSettings) => Promise<StartedRole>>> = {
  plain: { edge: startEdge, relay: startRelay, store: startStore },
  nest: { edge: startNestEdge, relay: startNestRelay, store: startNestStore },
};

/** Runs one role in this process (the forked entry below, or a spec); `url` is the edge's. */
export async function startFloorRole(role: FloorRole, settings: FloorSettings): Promise<StartedRole> {
  const nc = await connectNats(settings.natsUrl, `bench-floor-${role}`);
  const started = await ROLES[settings.framework][role](nc, settings);
  // Subscriptions reach the server before the role says it is ready, so the first request finds its responder.
  await nc.flush();
  return { url: started.url, close: async () => (await started.close(), await nc.drain()) };
}

if (require.main === module) {
  const settings = JSON.parse(process.env.BENCH_FLOOR_SETTINGS ?? '{}') as FloorSettings;
  serveForked(startFloorRole(process.argv[2] as FloorRole, settings));
}
