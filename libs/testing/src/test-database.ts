import { randomBytes } from 'node:crypto';
import { type DatabaseService, ensureDatabaseRoles, OWNER_ROLE, reserveAdvisoryLocks, roleUrl, serviceRole } from '@pp/platform';
import { Client } from 'pg';
import { testInfra } from './infra';
import { migrateThroughRunner } from './migrations/migrate-through-runner';

export interface TestDatabase {
  name: string;
  /** A superuser's connection, for tests' own set-up and assertions. */
  url: string;
  /** The owner role's connection: migrations and operator tasks (the ledger's rebuild). */
  ownerUrl: string;
  /** The connection a service logs in with: its own role. */
  serviceUrl(service: DatabaseService): string;
  /** Migrates a service's schema as the owner, with its migrate command's code (once per database). */
  migrate(service: DatabaseService): Promise<void>;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one spec file, owned by the owner role as in
 * production; the roles themselves are made once per jest worker (they are
 * cluster-wide, and ensureDatabaseRoles serialises the workers).
 */
export async function createTestDatabase(label = 'test'): Promise<TestDatabase> {
  const name = `pp_${label.replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 20)}_${randomBytes(4).toString('hex')}`;
  await (rolesReady ??= withAdmin((admin) => ensureDatabaseRoles(admin, testInfra.postgresRolePasswords)));
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}" OWNER ${OWNER_ROLE}`));
  const url = new URL(testInfra.postgresAdminUrl);
  url.pathname = `/${name}`;
  // A copy of template1, where every role may take advisory locks: reserved as `npm start` and the deployments do.
  await withAdmin(reserveAdvisoryLocks, url.href);
  const passwords = testInfra.postgresRolePasswords;
  const ownerUrl = roleUrl(url.href, OWNER_ROLE, passwords[OWNER_ROLE]);
  const migrations = new Map<DatabaseService, Promise<void>>();
  const migrate = (service: DatabaseService): Promise<void> => {
    let migrated = migrations.get(service);
    if (!migrated) {
      migrated = migrateThroughRunner(service, ownerUrl);
      migrations.set(service, migrated);
    }
    return migrated;
  };
  return {
    name,
    url: url.toString(),
    ownerUrl,
    serviceUrl: (service) => roleUrl(url.href, serviceRole(service), passwords[serviceRole(service)]),
    migrate,
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

let rolesReady: Promise<void> | undefined;

/** Runs `fn` on a superuser connection, to database postgres unless `url` names another. */
async function withAdmin<T>(fn: (client: Client) => Promise<T>, url = testInfra.postgresAdminUrl): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
