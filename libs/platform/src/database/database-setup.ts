import { escapeIdentifier, escapeLiteral } from 'pg';
import { DATABASE_SERVICES, OWNER_ROLE, serviceRole } from './database-roles';

/** The one call the set-up needs from a pg Client or Pool. */
export interface Sql {
  query<R extends object = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
}

/** Login passwords by role name; a role without one keeps its password (local trust auth needs none). */
export type RolePasswords = Readonly<Record<string, string | undefined>>;

/** Every role a deployment needs: the owner first, then one per service with a schema. */
export const DATABASE_ROLES: readonly string[] = [OWNER_ROLE, ...DATABASE_SERVICES.map(serviceRole)];

/**
 * The roles that take advisory locks: the owner (migrations' `pp:migrate`,
 * a read-model rebuild's lock) and the ledger (the publisher's leadership,
 * the streams' append locks, the read models' lock shared).
 */
export const ADVISORY_LOCK_ROLES: readonly string[] = [OWNER_ROLE, serviceRole('ledger')];

/**
 * Creates the owner and service roles, or brings existing ones back to what
 * they must be: able to log in, never superuser, no role or database
 * creation, no replication, no row-level-security bypass, and no service role
 * a member of the owner (membership would lend it the owner's powers). Run by
 * a superuser at set-up (`npm start`, `npm test`, TestStack). Roles are
 * cluster-wide, so callers racing each other (jest workers, two launchers)
 * are serialised by an advisory lock held for the transaction.
 */
export async function ensureDatabaseRoles(sql: Sql, passwords: RolePasswords = {}): Promise<void> {
  try {
    await ensureRolesOnce(sql, passwords);
  } catch (error) {
    // A caller locking in another database can still race a CREATE ROLE; the second try sees the role.
    if (!['23505', '42710'].includes((error as { code?: string }).code ?? '')) throw error;
    await ensureRolesOnce(sql, passwords);
  }
}

async function ensureRolesOnce(sql: Sql, passwords: RolePasswords): Promise<void> {
  await sql.query('BEGIN');
  try {
    await sql.query(`SELECT pg_advisory_xact_lock(hashtext('pp:database-roles'))`);
    const { rows } = await sql.query<{ rolname: string }>('SELECT rolname FROM pg_roles WHERE rolname = ANY($1)', [DATABASE_ROLES]);
    const existing = new Set(rows.map((row) => row.rolname));
    for (const role of DATABASE_ROLES) {
      const password = passwords[role] ? ` PASSWORD ${escapeLiteral(passwords[role]!)}` : '';
      const attributes = `LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS${password}`;
      await sql.query(`${existing.has(role) ? 'ALTER' : 'CREATE'} ROLE ${escapeIdentifier(role)} ${attributes}`);
    }
    const { rows: memberships } = await sql.query<{ member: string; role: string }>(
      `SELECT m.rolname AS member, r.rolname AS role FROM pg_auth_members a
         JOIN pg_roles m ON m.oid = a.member JOIN pg_roles r ON r.oid = a.roleid
        WHERE m.rolname = ANY($1)`,
      [DATABASE_ROLES],
    );
    for (const { member, role } of memberships) await sql.query(`REVOKE ${escapeIdentifier(role)} FROM ${escapeIdentifier(member)}`);
    await sql.query('COMMIT');
  } catch (error) {
    await sql.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Gives an existing database and the service schemas in it to the owner role:
 * databases set up before the roles existed have everything owned by the
 * superuser that ran the services' migrations at boot. `sql` is a superuser
 * connection to that database. A no-op once everything belongs to the owner.
 */
export async function handDatabaseToOwner(sql: Sql, database: string): Promise<void> {
  const owner = escapeIdentifier(OWNER_ROLE);
  await sql.query(`ALTER DATABASE ${escapeIdentifier(database)} OWNER TO ${owner}`);
  const schemas = [...DATABASE_SERVICES];
  const { rows } = await sql.query<{ statement: string }>(
    `WITH owner AS (SELECT oid FROM pg_roles WHERE rolname = $2)
     SELECT format('ALTER SCHEMA %I OWNER TO %I', n.nspname, $2) AS statement
       FROM pg_namespace n WHERE n.nspname = ANY($1) AND n.nspowner <> (SELECT oid FROM owner)
     UNION ALL
     SELECT format('ALTER %s %I.%I OWNER TO %I', CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
                   n.nspname, c.relname, $2)
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = ANY($1) AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S') AND c.relowner <> (SELECT oid FROM owner)
        -- a column's sequence follows its table
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))
     UNION ALL
     SELECT format('ALTER ROUTINE %s OWNER TO %I', p.oid::regprocedure, $2)
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = ANY($1) AND p.proowner <> (SELECT oid FROM owner)`,
    [schemas, OWNER_ROLE],
  );
  for (const { statement } of rows) await sql.query(statement);
}

/**
 * Leaves the advisory-lock functions of pg_catalog (every signature: taking,
 * trying, shared, unlocking) executable only by ADVISORY_LOCK_ROLES and
 * superusers. Postgres lets PUBLIC call them and advisory locks are shared by
 * everyone in a database, so any other service's role could otherwise hold
 * the ledger's keys and stall its publication, its appends or the
 * migrations. Privileges on pg_catalog are per database: `sql` is a superuser
 * connection to the database to protect. A no-op once done.
 */
export async function reserveAdvisoryLocks(sql: Sql): Promise<void> {
  const { rows } = await sql.query<{ routine: string }>(
    `SELECT p.oid::regprocedure::text AS routine FROM pg_proc p
      WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.proname LIKE 'pg%advisory%' ORDER BY 1`,
  );
  const routines = rows.map((row) => row.routine).join(', ');
  const others = DATABASE_ROLES.filter((role) => !ADVISORY_LOCK_ROLES.includes(role));
  const roleList = (roles: readonly string[]): string => roles.map(escapeIdentifier).join(', ');
  // One simple query is one transaction: the ledger never finds itself between the revoke and the grant.
  await sql.query(
    `REVOKE EXECUTE ON FUNCTION ${routines} FROM PUBLIC, ${roleList(others)};
     GRANT EXECUTE ON FUNCTION ${routines} TO ${roleList(ADVISORY_LOCK_ROLES)}`,
  );
}
