// Every Jest run starts from a fresh dist/, so harness-spawned services run the code under test.
// Then one migration runner serves the whole run (libs/testing/src/migrations): each spec's database is
// migrated with the migrate command's code without loading TypeORM and the migrations again each time.
const { build } = require('./build');

module.exports = async () => {
  build({ quiet: true });
  const { startMigrationRunner, MIGRATION_RUNNER_ENV } = require('../../dist/libs/testing/src/migrations/start-migration-runner');
  const runner = await startMigrationRunner();
  // The workers Jest starts next inherit the parent's environment.
  process.env[MIGRATION_RUNNER_ENV] = runner.url;
  globalThis.__stopMigrationRunner = runner.stop;
};
