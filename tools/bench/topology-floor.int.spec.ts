import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase, testInfra, waitFor } from '@pp/testing';
import type { FloorFramework } from './floor-parts';
import { type FloorRole, startFloorRole } from './topology-floor';

describe.each<FloorFramework>(['plain', 'nest'])('the create path floor (bench), %s', (framework) => {
  let database: TestDatabase;
  const running: Array<{ close(): Promise<void> }> = [];
  let edgeUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase('floor');
    const settings = { databaseUrl: database.url, natsUrl: testInfra.natsUrl, namespace: `floor${randomBytes(4).toString('hex')}`, framework };
    for (const role of ['store', 'relay', 'edge'] as FloorRole[]) {
      const started = await startFloorRole(role, settings);
      running.unshift(started);
      if (started.url) edgeUrl = started.url;
    }
  });

  afterAll(async () => {
    for (const role of running) await role.close();
    await database.drop();
  });

  it('given concurrent creations, when they cross both hops, then each is answered 201 with its stored row, and the store inserted them in fewer statements than requests', async () => {
    const references = Array.from({ length: 20 }, () => `floor-${randomUUID()}`);
    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      // The table is held, so the first insert waits on it and the requests behind it gather for the next one, however the machine schedules them.
      await db.query('BEGIN');
      await db.query('LOCK TABLE bench_floor IN SHARE MODE');
      const answering = Promise.all(
        references.map(async (reference) => {
          const response = await fetch(`${edgeUrl}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference, amount: 2500 }) });
          return { status: response.status, body: (await response.json()) as { id: string; status: string } };
        }),
      );
      await waitFor('an insert waiting on the held table', async () => {
        const { rows } = await db.query(`SELECT 1 FROM pg_locks WHERE relation = 'bench_floor'::regclass AND NOT granted`);
        return rows.length > 0;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await db.query('COMMIT');
      const answers = await answering;
      expect(answers.map((answer) => answer.status)).toEqual(references.map(() => 201));

      const { rows } = await db.query<{ id: string; reference: string; tx: string }>('SELECT id, reference, xmin::text AS tx FROM bench_floor WHERE reference = ANY($1)', [references]);
      const stored = new Map(rows.map((row) => [row.reference, row.id]));
      expect(answers.map((answer, i) => answer.body.id === stored.get(references[i]))).toEqual(references.map(() => true));
      // Rows of one INSERT share its transaction: requests that arrived during an insert went into the next one.
      expect(new Set(rows.map((row) => row.tx)).size).toBeLessThan(references.length);
    } finally {
      await db.end();
    }
  });

  it('given a body the store cannot insert, then the edge answers 500, so a failure is never counted as a creation', async () => {
    const response = await fetch(`${edgeUrl}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference: 'floor-bad', amount: 'not cents' }) });
    expect(response.status).toBe(500);
  });
});
