import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/** A statement as a repository ran it. */
export interface RanStatement {
  sql: string;
  parameters?: unknown[];
}

/** `dataSource` recording each statement run through its `query`, so a spec can ask Postgres how it plans them. */
export function recordingStatements(dataSource: DataSource): { dataSource: DataSource; statements: RanStatement[] } {
  const statements: RanStatement[] = [];
  const recording = new Proxy(dataSource, {
    get: (target, property, receiver) =>
      property === 'query'
        ? (sql: string, parameters?: unknown[]) => {
            statements.push({ sql, parameters });
            return target.query(sql, parameters);
          }
        : Reflect.get(target, property, receiver),
  });
  return { dataSource: recording, statements };
}

/**
 * Postgres's plan for the statement, as EXPLAIN prints it, with sequential
 * scans off: on a spec's small tables the planner would scan them whole,
 * where on a real one it reads the index the plan then shows.
 */
export async function planOf(admin: Pool, { sql, parameters }: RanStatement): Promise<string> {
  const client = await admin.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL enable_seqscan = off');
    return (await client.query(`EXPLAIN ${sql}`, parameters)).rows.map((row) => row['QUERY PLAN'] as string).join('\n');
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
}
