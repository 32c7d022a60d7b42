#!/usr/bin/env node
/**
 * `npm run cli -- <command> [options]`:
 * - the merchant's commands (login, sessions, payments, events, trigger,
 *   listen) are the SDK's CLI (libs/sdk/src/cli), talking to the gateway over
 *   HTTP with an API key, as the published package's `pp-checkout` does;
 * - the operator's commands (merchant:create, demo:seed,
 *   platform-admin:create, :reset-password and :remove) run against the same database `npm start` uses,
 *   as the gateway's role, after the usual set-up (roles and migrations included).
 */
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { ensurePackages } = require('./install');

const root = join(__dirname, '..', '..');

const MERCHANT_COMMANDS = new Set(['login', 'sessions', 'payments', 'events', 'trigger', 'listen', 'help', '--help']);

/** Runs set-up with its progress on stderr, so a merchant command's stdout (NDJSON with --json) stays clean. */
function withProgressOnStderr(setUp) {
  const write = process.stdout.write;
  process.stdout.write = process.stderr.write.bind(process.stderr);
  try {
    setUp();
  } finally {
    process.stdout.write = write;
  }
}

async function main() {
  if (MERCHANT_COMMANDS.has(process.argv[2] ?? 'help')) {
    withProgressOnStderr(() => {
      ensurePackages(root);
      require('../build/build').build({ quiet: true });
    });
    const sdkCli = join(root, 'dist', 'libs', 'sdk', 'src', 'cli', 'main.js');
    const result = spawnSync(process.execPath, [sdkCli, ...process.argv.slice(2)], { stdio: 'inherit' });
    process.exit(result.status ?? 1);
  }
  ensurePackages(root);
  require('../build/build').build({ quiet: true });
  const { ensureInfrastructure } = require('./infrastructure');
  const infra = await ensureInfrastructure(root, process.env);
  const natsUrls = require('./nats-server').natsIdentityUrls(root, process.env);
  const { serviceUrls } = await require('./postgres-roles').preparePostgres(root, infra.DATABASE_URL, natsUrls.migrate);
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
