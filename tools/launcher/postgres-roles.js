/**
 * Postgres roles for `npm start`, `npm test` and `npm run cli` (docs/ARCHITECTURE.md,
 * "Set-up and tests"). DATABASE_URL given to the launcher names the server,
 * the database and a superuser used only here: it creates the owner role
 * (pp_owner) and one login role per service with a schema (pp_<service>),
 * hands the database to the owner, leaves its advisory locks to the owner and
 * the ledger, and, for a running stack, migrates every schema as the owner
 * before any service starts. Services then get DATABASE_URL with their own
 * role, never the superuser's.
 *
 * Passwords are generated once into .dev/postgres-roles.json (git-ignored) and
 * set on every run, so the same URLs work with trust and with scram
 * authentication. The roles are cluster-wide: one cluster serves one checkout.
 */
const { randomBytes } = require('node:crypto');
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const out = require('./console');
const { run } = require('./run-command');
const { writePrivateFile } = require('./private-file');

/** The database `npm start` and `npm test` set up when DATABASE_URL names none. */
const PROJECT_DATABASE = 'pp';
/** Postgres's own databases: handing one to the owner role, then revoking CONNECT from PUBLIC in it, would break the cluster's tools and every other client. */
const MAINTENANCE_DATABASES = ['postgres', 'template0', 'template1'];

/**
 * DATABASE_URL as the set-up uses it: a URL naming no database (`…:5432` or `…:5432/`) names the
 * project's, `pp`; otherwise an empty name would reach `ALTER DATABASE ""`, and each service would
 * log in to a database named after its role.
 */
function projectDatabaseUrl(databaseUrl) {
  const url = new URL(databaseUrl);
  if (databaseName(url.href) === '') url.pathname = `/${PROJECT_DATABASE}`;
  return url.href;
}

/** The database a URL names, as pg reads it (pg-connection-string: decodeURI of the path). */
const databaseName = (databaseUrl) => decodeURI(new URL(databaseUrl).pathname.slice(1));

/**
 * The database preparePostgres hands to the owner role. Postgres's own are refused with an Error:
 * `npm test` and the bench may name one (they only use the server), `npm start` and `npm run cli` not.
 */
function databaseToHandOver(databaseUrl) {
  const name = databaseName(databaseUrl);
  if (MAINTENANCE_DATABASES.includes(name)) {
    throw new Error(
      `DATABASE_URL names the database ${name}, one of Postgres's own (${MAINTENANCE_DATABASES.join(', ')}): the set-up would hand it to the owner role pp_owner and close it to other roles. ` +
        `Name the project's database instead, e.g. postgres://USER:PASSWORD@host:5432/${PROJECT_DATABASE} (the launcher creates it)`,
    );
  }
  return name;
}

/**
 * A set-up session as the superuser ends any statement, and any wait for a lock, after a minute:
 * a session that holds a lock the set-up needs (a stuck migration, a forgotten psql in a transaction)
 * then fails `npm start` / `npm test` with Postgres's own error instead of hanging it.
 */
const SETUP_TIMEOUT_MS = 60_000;
const setupClientOptions = (url, timeoutMs = SETUP_TIMEOUT_MS) => ({
  connectionString: url,
  connectionTimeoutMillis: 5000,
  statement_timeout: timeoutMs,
  lock_timeout: timeoutMs,
});

/** The compiled role definitions (libs/platform/src/database), built before the launcher gets here. */
const database = (root) => require(join(root, 'dist', 'libs', 'platform', 'src', 'database', 'index.js'));

function rolePasswords(root, roles) {
  const file = join(root, '.dev', 'postgres-roles.json');
  const saved = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const passwords = Object.fromEntries(roles.map((role) => [role, saved[role] ?? randomBytes(24).toString('hex')]));
  if (roles.some((role) => !saved[role])) {
    writePrivateFile(file, JSON.stringify(passwords, null, 2));
  }
  return passwords;
}

/** Creates or repairs the roles (as the superuser of `adminUrl`); returns their passwords by role name. */
async function ensurePostgresRoles(root, adminUrl) {
  const { DATABASE_ROLES, ensureDatabaseRoles } = database(root);
  const passwords = rolePasswords(root, DATABASE_ROLES);
  // Every caller takes the roles' advisory lock in database postgres, so launchers and jest workers take turns.
  const url = new URL(adminUrl);
  url.pathname = '/postgres';
  await withSetupClient(url.href, (client) => ensureDatabaseRoles(client, passwords));
  out.info(`Postgres: roles ${DATABASE_ROLES.join(', ')} (passwords in .dev/postgres-roles.json)`);
  return passwords;
}

/**
 * Roles, the database handed to the owner with its advisory locks reserved,
 * every schema migrated as the owner, then the JetStream streams laid out as
 * the migrate bus identity (`migrateNatsUrl`): the migrate step. Returns the
 * owner's URL and each database service's URL.
 */
async function preparePostgres(root, adminUrl, migrateNatsUrl) {
  // Before anything is changed: a URL naming no database names pp (ensureInfrastructure's does already), a maintenance database stops here.
  adminUrl = projectDatabaseUrl(adminUrl);
  const name = databaseToHandOver(adminUrl);
  const { DATABASE_SERVICES, OWNER_ROLE, handDatabaseToOwner, reserveAdvisoryLocks, roleUrl, serviceRole } = database(root);
  const passwords = await ensurePostgresRoles(root, adminUrl);
  await withSetupClient(adminUrl, async (client) => {
    await handDatabaseToOwner(client, name);
    await reserveAdvisoryLocks(client);
  });
  const ownerUrl = roleUrl(adminUrl, OWNER_ROLE, passwords[OWNER_ROLE]);
  const migrate = run(process.execPath, [join(root, 'dist', 'libs', 'platform', 'src', 'database', 'migrate-all.js')], {
    cwd: root,
    env: { ...migrateStepSettings(process.env), PATH: process.env.PATH ?? '', MIGRATION_DATABASE_URL: ownerUrl, NATS_URL: migrateNatsUrl },
  });
  for (const line of migrate.stdout.trim().split('\n').filter(Boolean)) out.info(line);
  if (!migrate.ok) throw new Error(migrate.stderr.trim() || 'the migrate step failed');
  const serviceUrls = Object.fromEntries(DATABASE_SERVICES.map((service) => [service, roleUrl(adminUrl, serviceRole(service), passwords[serviceRole(service)])]));
  return { ownerUrl, serviceUrls };
}

/** What the migrate step lays the JetStream streams out with, as the caller set it: the namespace, replicas, limits, and a credentials file for its own server. */
const migrateStepSettings = (env) =>
  Object.fromEntries(
    ['PP_NAMESPACE', 'JETSTREAM_REPLICAS', 'INGEST_STREAM_MAX_BYTES', 'INGEST_BUCKET_MAX_BYTES', 'NATS_CREDS']
      .filter((name) => env[name] !== undefined)
      .map((name) => [name, env[name]]),
  );

/** The role passwords as docker-compose.yml's PP_DB_<ROLE>_PASSWORD variables (it accepts no default). */
function composePasswords(root) {
  const passwords = rolePasswords(root, database(root).DATABASE_ROLES);
  return Object.fromEntries(Object.entries(passwords).map(([role, password]) => [`PP_DB_${role.replace(/^pp_/, '').toUpperCase()}_PASSWORD`, password]));
}

/** Runs `fn` with a set-up session (setupClientOptions) as the superuser of `url`. */
async function withSetupClient(url, fn) {
  const { Client } = require('pg');
  const client = new Client(setupClientOptions(url));
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

module.exports = { composePasswords, ensurePostgresRoles, preparePostgres, projectDatabaseUrl, setupClientOptions, withSetupClient };
