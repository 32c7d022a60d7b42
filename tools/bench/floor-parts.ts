import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';

/**
 * What the create path's two floors (topology-floor.ts: plain, and on the
 * services' framework) share, so they differ only in their framework: their
 * settings, subjects and bus deadline, and the store's group-committed insert.
 */

export type FloorFramework = 'plain' | 'nest';

export interface FloorSettings {
  databaseUrl: string;
  natsUrl: string;
  /** One subject token of the floor's own. */
  namespace: string;
  framework: FloorFramework;
}

/** A running role; the edge's `url` is where the load goes. */
export interface StartedRole {
  url?: string;
  close(): Promise<void>;
}

export const FLOOR_BUS_TIMEOUT_MS = 10_000;

/** What the relay and the store answer, after the floor's namespace: the chain's two hops. */
export const FLOOR_PATTERNS = { relay: 'sessions.create.v1', store: 'ledger.append.v1' } as const;

/** Subjects the harness's bus identity may use, under a namespace of the floor's own, so no service hears them. */
export const floorSubjects = (namespace: string) => ({ relay: `${namespace}.${FLOOR_PATTERNS.relay}`, store: `${namespace}.${FLOOR_PATTERNS.store}` });

/** What the load POSTs and the store keeps of it. */
export interface CreationBody {
  reference: string;
  amount: number;
}

export interface FloorRow {
  id: string;
  status: 'PENDING';
}

export interface GroupInsert {
  /** Stores one creation body; bodies that arrive while an insert is under way go in the next one (one statement, its own commit). */
  insert(body: CreationBody): Promise<FloorRow>;
  close(): Promise<void>;
}

export async function openGroupInsert(databaseUrl: string): Promise<GroupInsert> {
  const pool = new Pool({ connectionString: databaseUrl, max: 2 });
  pool.on('error', (error) => process.stderr.write(`bench floor: an idle Postgres connection failed: ${error.message}\n`));
  await pool.query(
    'CREATE TABLE IF NOT EXISTS bench_floor (id text PRIMARY KEY, reference text NOT NULL, amount bigint NOT NULL, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
  );
  type Waiting = { body: CreationBody; resolve(row: FloorRow): void; reject(error: unknown): void };
  let waiting: Waiting[] = [];
  let inserting = false;
  const insertWaiting = async (): Promise<void> => {
    inserting = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      const ids = batch.map(() => randomUUID());
      try {
        await pool.query('INSERT INTO bench_floor (id, reference, amount, body) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::jsonb[])', [
          ids,
          batch.map(({ body }) => body.reference),
          batch.map(({ body }) => body.amount),
          batch.map(({ body }) => JSON.stringify(body)),
        ]);
        batch.forEach(({ resolve }, i) => resolve({ id: ids[i], status: 'PENDING' }));
      } catch (error) {
        batch.forEach(({ reject }) => reject(error));
      }
    }
    inserting = false;
  };
  return {
    insert: (body) =>
      new Promise((resolve, reject) => {
        waiting.push({ body, resolve, reject });
        if (!inserting) void insertWaiting();
      }),
    close: () => pool.end(),
  };
}
