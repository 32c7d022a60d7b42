import { escapeIdentifier } from 'pg';
import { serviceRole } from './database-roles';
import type { ServiceDatabase } from './service-database';

/** TypeORM's record of applied migrations; every service role reads it to check its schema at boot. */
export const MIGRATIONS_TABLE = 'migrations';

interface Sql {
  query<T = unknown>(text: string, values?: unknown[]): Promise<T>;
}

/**
 * Makes the service role's privileges in its schema exactly its grants:
 * USAGE on the schema, the listed table privileges, USAGE on the sequences
 * behind serial columns of the tables it may insert into, SELECT on the
 * migrations table, and CONNECT on the database (which PUBLIC loses). Anything granted before is
 * revoked first, so removing a privilege from the grants file removes it
 * from the database. Refuses a schema whose tables and grants disagree.
 * Run inside a transaction, so the service never sees a half-granted schema.
 */
export async function applySchemaGrants(sql: Sql, { service, schema, grants }: ServiceDatabase): Promise<void> {
  const role = serviceRole(service);
  const grantsFile = `apps/${service}/src/database/${service}.grants.ts`;
  const roleExists = await sql.query<unknown[]>('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  if (roleExists.length === 0) {
    throw new Error(`role ${role} does not exist: create the database roles before migrating (see docs/ARCHITECTURE.md, "Set-up and tests")`);
  }
  const tables = await sql.query<{ relname: string }[]>(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.relname <> $2 ORDER BY c.relname`,
    [schema, MIGRATIONS_TABLE],
  );
  const present = new Set(tables.map((table) => table.relname));
  const ungranted = [...present].filter((table) => !Object.hasOwn(grants, table));
  const unknown = Object.keys(grants).filter((table) => !present.has(table));
  if (ungranted.length > 0 || unknown.length > 0) {
    throw new Error(
      [
        ungranted.length > 0 && `${ungranted.map((t) => `${schema}.${t}`).join(', ')} has no entry in the grants of ${role} (add it to ${grantsFile}; [] for no access)`,
        unknown.length > 0 && `the grants of ${role} (${grantsFile}) name ${unknown.map((t) => `${schema}.${t}`).join(', ')}, which does not exist`,
      ]
        .filter(Boolean)
        .join('; '),
    );
  }

  const s = escapeIdentifier(schema);
  const r = escapeIdentifier(role);
  await sql.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${s} FROM PUBLIC, ${r}`);
  await sql.query(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${s} FROM PUBLIC, ${r}`);
  await sql.query(`REVOKE ALL ON SCHEMA ${s} FROM PUBLIC`);
  await sql.query(`GRANT USAGE ON SCHEMA ${s} TO ${r}`);
  await sql.query(`GRANT SELECT ON ${s}.${escapeIdentifier(MIGRATIONS_TABLE)} TO ${r}`);
  for (const [table, privileges] of Object.entries(grants)) {
    if (privileges.length === 0) continue;
    await sql.query(`GRANT ${privileges.join(', ')} ON ${s}.${escapeIdentifier(table)} TO ${r}`);
  }
  const insertable = Object.entries(grants)
    .filter(([, privileges]) => privileges.includes('INSERT'))
    .map(([table]) => table);
  const sequences = await sql.query<{ sequence: string }[]>(
    `SELECT format('%I.%I', n.nspname, s.relname) AS sequence
       FROM pg_depend d
       JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
       JOIN pg_class t ON t.oid = d.refobjid
       JOIN pg_namespace n ON n.oid = s.relnamespace
      WHERE d.classid = 'pg_class'::regclass AND d.deptype = 'a' AND n.nspname = $1 AND t.relname = ANY($2)`,
    [schema, insertable],
  );
  for (const { sequence } of sequences) await sql.query(`GRANT USAGE ON SEQUENCE ${sequence} TO ${r}`);

  // Only the roles granted CONNECT reach the database, and nobody but the owner creates objects in it.
  const database = escapeIdentifier((await sql.query<{ name: string }[]>('SELECT current_database() AS name'))[0].name);
  await sql.query(`REVOKE ALL ON DATABASE ${database} FROM PUBLIC`);
  await sql.query(`GRANT CONNECT ON DATABASE ${database} TO ${r}`);
  await sql.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
}
