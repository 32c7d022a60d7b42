#!/usr/bin/env node
/** `npm run bench`: the usual set-up, then the benchmark (tools/bench/run-bench.ts) against a fresh stack. */
const { spawnSync } = require('node:child_process');
const { join } = require('node:path');
const { ensurePackages } = require('./install');
const { testNatsEnv } = require('./nats-server');

const root = join(__dirname, '..', '..');

async function main() {
  ensurePackages(root);
  require('../build/build').build({ quiet: true });
  const infra = await require('./infrastructure').ensureInfrastructure(root, process.env);
  const admin = new URL(infra.DATABASE_URL);
  admin.pathname = '/postgres';
  const rolePasswords = await require('./postgres-roles').ensurePostgresRoles(root, infra.DATABASE_URL);
  const result = spawnSync(process.execPath, [join(root, 'dist', 'tools', 'bench', 'run-bench.js')], {
    stdio: 'inherit',
    env: { ...process.env, TEST_POSTGRES_URL: admin.href, ...testNatsEnv(root), TEST_REDIS_URL: infra.REDIS_URL, TEST_POSTGRES_ROLE_PASSWORDS: JSON.stringify(rolePasswords) },
  });
  process.exit(result.status ?? 1);
}

main().catch((error) => {
  console.error(`error: ${error.message}`);
  process.exit(1);
});
