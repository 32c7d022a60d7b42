import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_CLIENT } from '@pp/contracts';
import { REPO_ROOT } from './service-process';

/**
 * The URL of each bus identity on the project's NATS server (PRODUCT-RULES §D4):
 * exported by `npm test` (tools/launcher/test.js) as TEST_NATS_IDENTITIES, or
 * read from what the launcher generated (.dev/nats) when Jest runs directly.
 */
function natsIdentities(): Record<string, string> {
  if (process.env.TEST_NATS_IDENTITIES) return JSON.parse(process.env.TEST_NATS_IDENTITIES);
  try {
    const dir = join(REPO_ROOT, '.dev', 'nats');
    const identities = JSON.parse(readFileSync(join(dir, 'identities.json'), 'utf8')) as Record<string, { password: string }>;
    const { port } = JSON.parse(readFileSync(join(dir, 'server.json'), 'utf8')) as { port: number };
    return Object.fromEntries(Object.entries(identities).map(([name, { password }]) => [name, `nats://${name}:${password}@127.0.0.1:${port}`]));
  } catch {
    return {};
  }
}

const identities = natsIdentities();

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
  /** The harness's own identity (test-client): it may call and answer any subject, and read only its own replies. */
  natsUrl: process.env.TEST_NATS_URL ?? identities[TEST_CLIENT] ?? 'nats://127.0.0.1:4222',
  redisUrl: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  /** The URL a service or the mail pipeline connects with, under its own identity. */
  natsUrlOf(identity: string): string {
    const url = identities[identity];
    if (!url) throw new Error(`no NATS identity ${identity}: run the tests with npm test, which sets up the project's NATS server`);
    return url;
  },
};
