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

const MERCHANT_COMMANDS = new Set(['login', 'sessions', 'payments', 'events', 'trigger', 'listen', 'help']);

/**
 * The SDK CLI's options that take no value (VALUELESS_OPTIONS in libs/sdk/src/cli/args.ts; a unit test keeps the two
 * the same). Every other `--name` takes the next word as its value, unless written `--name=value`. `no-color` does
 * nothing, and is accepted for scripts written before it was removed: else `--no-color payments list` would read
 * `payments` as its value, and `list` as an operator's command.
 */
const VALUELESS_OPTIONS = new Set(['json', 'print-secret', 'help', 'no-color']);

/**
 * The command word of a command line, read as the SDK CLI reads it (args.ts): options and their values skipped,
 * everything after `--` a word. Undefined when there is none (`--help`, `--api-key X` alone).
 */
function commandWord(args) {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') return args[i + 1];
    if (!arg.startsWith('--')) return arg;
    const name = arg.slice(2);
    if (!name.includes('=') && !VALUELESS_OPTIONS.has(name) && args[i + 1] !== undefined && !args[i + 1].startsWith('--')) i++;
  }
  return undefined;
}

/**
 * Whether the merchant's CLI (the SDK's) takes this command line, else the operator's: by its command word, wherever
 * the options put it (`--api-key X sessions get id`). No word is the merchant CLI's usage; so is a word with one dash
 * (`-api-key`, a mistyped option), which the merchant CLI refuses with a hint, where the operator's would first set up
 * the database.
 */
function isMerchantCommand(args) {
  const word = commandWord(args);
  return word === undefined || MERCHANT_COMMANDS.has(word) || word.startsWith('-');
}

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
  if (isMerchantCommand(process.argv.slice(2))) {
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
  const { infra, serviceUrls } = await require('./setup-lock').withSetupLock(root, async () => {
    const infra = await ensureInfrastructure(root, process.env);
    const natsUrls = require('./nats-server').natsIdentityUrls(root, process.env);
    return { infra, serviceUrls: (await require('./postgres-roles').preparePostgres(root, infra.DATABASE_URL, natsUrls.migrate)).serviceUrls };
  });
  const cli = join(root, 'dist', 'apps', 'gateway', 'src', 'cli.js');
  const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, ...infra, DATABASE_URL: serviceUrls.gateway },
  });
  process.exit(result.status ?? 1);
}

if (require.main === module) {
  main().catch((error) => {
    console.error(`error: ${error.message}`);
    process.exit(1);
  });
}

module.exports = { commandWord, isMerchantCommand, VALUELESS_OPTIONS };
