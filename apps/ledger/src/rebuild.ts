import 'reflect-metadata';
import { ConfigError, loadConfig, WithMigrationDatabase } from '@pp/platform';
import { assertMigrated, dataSourceFor } from '@pp/platform/typeorm';
import { LedgerDatabase } from './database/ledger.database';
import { poolOf } from './event-store/ledger-pool';
import { LEDGER_PROJECTIONS } from './projections/ledger.projections';
import { rebuildReadModels } from './projections/rebuild-read-models';

/**
 * `npm run ledger:rebuild`: drops every read model of the ledger and rebuilds
 * it from the event store, printing progress. An operator task: it empties
 * tables the ledger's own role may not, so it connects as the schema owner
 * (MIGRATION_DATABASE_URL) on a migrated schema. While it runs, the
 * ledger's reads and appends wait on its locks (their callers give up) and
 * publication stalls: a task for a maintenance window (rebuildReadModels).
 */
class RebuildConfig extends WithMigrationDatabase(class {}) {}

async function main(): Promise<void> {
  const config = loadConfig(RebuildConfig, process.env);
  const dataSource = dataSourceFor(LedgerDatabase, { url: config.MIGRATION_DATABASE_URL, poolSize: 2, applicationName: 'ledger-rebuild' });
  await dataSource.initialize();
  try {
    await assertMigrated(dataSource, LedgerDatabase);
    const names = LEDGER_PROJECTIONS.map((projection) => projection.name).join(', ');
    process.stdout.write(`rebuilding read models: ${names}\n`);
    const started = Date.now();
    const result = await rebuildReadModels(poolOf(dataSource, (error) => process.stderr.write(`the database connection was lost: ${error.message}\n`)), LEDGER_PROJECTIONS, ({ done, total }) => {
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
      process.stdout.write(`  ${done}/${total} events (${percent}%)\n`);
    });
    process.stdout.write(`rebuilt ${names} from ${result.done} events in ${Date.now() - started} ms\n`);
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: unknown) => {
  const detail = error instanceof ConfigError ? `configuration error: ${error.problems.join('; ')}` : error instanceof Error ? error.message : String(error);
  process.stderr.write(`ledger rebuild failed: ${detail}\n`);
  process.exit(1);
});
