import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { DATABASE_SERVICES } from './database-roles';

/**
 * `node dist/libs/platform/src/database/migrate-all.js`: runs every service's
 * migrate entry point (dist/apps/<service>/src/migrate.js) in turn, as the
 * owner named by MIGRATION_DATABASE_URL, and stops at the first failure. The
 * one command of the compose `migrate` service, the Kubernetes `migrate` Job
 * and `npm start`; every service image holds it.
 */
const apps = join(__dirname, '..', '..', '..', '..', 'apps');
for (const service of DATABASE_SERVICES) {
  const { status } = spawnSync(process.execPath, [join(apps, service, 'src', 'migrate.js')], { stdio: 'inherit', env: process.env });
  if (status !== 0) process.exit(status ?? 1);
}
