/** A DataSource or a transaction's EntityManager: repositories run the same SQL on either. */
export interface Queryable {
  query<T = unknown>(sql: string, parameters?: unknown[]): Promise<T>;
}

/** TypeORM answers UPDATE and DELETE with [rows, rowCount]; other statements with rows. */
export async function returning<T>(db: Queryable, sql: string, parameters: unknown[]): Promise<T[]> {
  const raw = await db.query(sql, parameters);
  return (Array.isArray(raw) && Array.isArray(raw[0]) ? raw[0] : raw) as T[];
}
