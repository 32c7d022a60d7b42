import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadConfig } from '../config/load-config';
import { JetStreamProvisioningConfig, layoutSettingsOf } from '../jetstream/jetstream-provisioning.config';
import { provisionJetStream } from '../jetstream/provision-jetstream';
import { connectNats } from '../nats/connect-nats';
import { DATABASE_SERVICES } from './database-roles';

/**
 * `node dist/libs/platform/src/database/migrate-all.js`: the migrate step.
 * Runs every service's migrate entry point (dist/apps/<service>/src/migrate.js)
 * in turn, as the owner named by MIGRATION_DATABASE_URL, and stops at the
 * first failure; then creates the JetStream streams and object stores, or
 * brings them up to date, as the `migrate` bus identity (NATS_URL), the only
 * one allowed to (jetstream-layout.ts). The one command of the compose
 * `migrate` service, the Kubernetes `migrate` Job and `npm start`; every
 * service image holds it.
 */
async function main(): Promise<void> {
  // Read first: a mistyped setting stops the step before any schema changes.
  const config = loadConfig(JetStreamProvisioningConfig, process.env);
  const apps = join(__dirname, '..', '..', '..', '..', 'apps');
  for (const service of DATABASE_SERVICES) {
    const { status } = spawnSync(process.execPath, [join(apps, service, 'src', 'migrate.js')], { stdio: 'inherit', env: process.env });
    if (status !== 0) process.exit(status ?? 1);
  }
  const nc = await connectNats(config.NATS_URL, 'migrate', config.NATS_CREDS);
  try {
    for (const line of await provisionJetStream(nc, layoutSettingsOf(config))) console.log(`jetstream: ${line}`);
  } finally {
    await nc.close();
  }
}

main().catch((error: unknown) => {
  console.error(`migrate: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
