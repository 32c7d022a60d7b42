import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase, testInfra } from '@pp/testing';
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
    const answers = await Promise.all(
      references.map(async (reference) => {
        const response = await fetch(`${edgeUrl}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference, amount: 2500 }) });
        return { status: response.status, body: (await response.json()) as { id: string; status: string } };
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(references.map(() => 201));

    const db = new Client({ connectionString: database.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string; reference: string; tx: string }>('SELECT id, reference, xmin::text AS tx FROM bench_floor');
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
