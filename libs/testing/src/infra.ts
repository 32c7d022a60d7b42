/**
 * Where the test infrastructure is. `npm test` (tools/launcher/test.js) makes
 * sure these answer and exports them; the defaults are the local servers.
 */
export const testInfra = {
  /** A superuser: creates the roles and each spec's database, and serves tests' own assertions. */
  postgresAdminUrl: process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  /**
   * Passwords of the owner and service roles by role name (JSON), from the
   * launcher's .dev/postgres-roles.json; without them the roles keep theirs
   * and log in without one (local trust auth).
   */
  postgresRolePasswords: JSON.parse(process.env.TEST_POSTGRES_ROLE_PASSWORDS ?? '{}') as Record<string, string>,
  natsUrl: process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
};
