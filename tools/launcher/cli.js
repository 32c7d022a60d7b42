#!/usr/bin/env node
/**
 * `npm run cli -- <command> [options]`: the gateway's operator CLI
 * (merchant:create, demo:seed, platform-admin:create) against the same
 * database `npm start` uses, after the usual set-up.
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
  const cli = join(root, 'dist', 'apps', 'gateway', 'src', 'cli.js');
  const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, ...infra },
  });
  process.exit(result.status ?? 1);
}

main().catch((error) => {
  console.error(`error: ${error.message}`);
  process.exit(1);
});
