#!/usr/bin/env node
/**
 * `npm run cli -- <command> [options]`: the gateway's operator CLI
 * (merchant:create, demo:seed, platform-admin:create) against the same
 * database `npm start` uses, as the gateway's role, after the usual set-up
 * (roles and migrations included).
 */
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { ensurePackages } = require('./install');

const root = join(__dirname, '..', '..');

async function main() {
  ensurePackages(root);
  require('../build/build').build({ quiet: true });
  const { ensureInfrastructure } = require('./infrastructure');
  const infra = await ensureInfrastructure(root, process.env);
  const { serviceUrls } = await require('./postgres-roles').preparePostgres(root, infra.DATABASE_URL);
  const cli = join(root, 'dist', 'apps', 'gateway', 'src', 'cli.js');
  const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, ...infra, DATABASE_URL: serviceUrls.gateway },
  });
  process.exit(result.status ?? 1);
}

main().catch((error) => {
  console.error(`error: ${error.message}`);
  process.exit(1);
});
