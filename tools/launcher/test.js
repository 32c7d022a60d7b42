#!/usr/bin/env node
/**
 * `npm test`: the same set-up as `npm start` (packages, build, Postgres/NATS/
 * Redis), then type-check, lint and every Jest tier. Extra arguments go to
 * Jest (`npm test -- apps/sessions`). Under CI (CI=true) the tests run again on the other
 * LTS lines (OTHER_NODES below; TEST_NODE24=1 or TEST_NODE22=1 asks for one of them outside CI).
 * Ends with "Summary: N passed, N failed", every run added up.
 */
const { existsSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const out = require('./console');
const { ensurePackages } = require('./install');
const { testNatsEnv } = require('./nats-server');
const { run } = require('./run-command');

const root = join(__dirname, '..', '..');
/** A package's command-line entry (some packages' exports maps hide their bin files from require.resolve). */
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);

async function main() {
  const jestArgs = process.argv.slice(2);
  ensurePackages(root);
  out.step('Build (swc → dist/)');
  require('../build/build').build({ quiet: true });

  const { ensureInfrastructure, ensureChromium } = require('./infrastructure');
  const infra = await ensureInfrastructure(root, process.env);
  ensureChromium();
  const admin = new URL(infra.DATABASE_URL);
  admin.pathname = '/postgres';
  const rolePasswords = await require('./postgres-roles').ensurePostgresRoles(root, infra.DATABASE_URL);
  const env = {
    ...process.env,
    TEST_POSTGRES_URL: admin.href,
    TEST_POSTGRES_ROLE_PASSWORDS: JSON.stringify(rolePasswords),
    ...testNatsEnv(root),
    TEST_REDIS_URL: infra.REDIS_URL,
    // Services the tests start on Node 24 load their modules from V8's cached code (libs/testing service-process.ts).
    NODE_COMPILE_CACHE: join(root, 'tmp', 'node-compile-cache'),
  };
  reapTestLeftovers();

  if (jestArgs.length === 0) {
    out.step('Type-check (tsc --noEmit)');
    gate(run(process.execPath, [bin('typescript', 'bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], { cwd: root, stdio: 'inherit', timeoutMs: 10 * 60_000 }), 'type errors');
    out.step('Lint (eslint over the whole tree: apps, libs, tools, deploy, browser scripts; Nx module boundaries)');
    const nxEnv = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
    // The boundary rule reads Nx's project graph; computing it first makes the rule run instead of skipping.
    gate(run(process.execPath, [bin('nx', 'dist/bin/nx.js'), 'show', 'projects'], { cwd: root, env: nxEnv }), 'Nx project graph errors');
    gate(run(process.execPath, [bin('eslint', 'bin/eslint.js'), '.'], { cwd: root, stdio: 'inherit', timeoutMs: 10 * 60_000, env: nxEnv }), 'lint errors');
  }

  out.step('Tests (jest: unit, integration, end-to-end)');
  const runs = [runJest(process.execPath, jestArgs, env, 'jest-results.json')];
  const { ensurePinnedNode } = require('./pinned-node');
  for (const other of OTHER_NODES) {
    if (!process.env.CI && !process.env[other.flag]) continue;
    out.step(`Tests on Node ${other.major} LTS (jest: ${other.what}; services spawned by the tests run on it too)`);
    const args = jestArgs.length > 0 ? jestArgs : ['--testPathPatterns', other.tiers];
    runs.push(runJest(ensurePinnedNode(other.major), args, env, `jest-results-node${other.major}.json`));
  }
  const passed = runs.reduce((sum, result) => sum + result.passed, 0);
  const failed = runs.reduce((sum, result) => sum + result.failed, 0);
  const skipped = runs.reduce((sum, result) => sum + result.skipped, 0);
  console.log(`\nSummary: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(runs.every((result) => result.ok) ? 0 : 1);
}

/**
 * The LTS lines the code must also run on, each one more Jest run under CI (or with its flag).
 * Production images run Node 24 (deploy/Dockerfile): a runtime incompatibility must fail CI, not a
 * deployment, so it gets the unit and integration tiers. Node 22 gets the unit tier and the deploy
 * specs, which boot every service and take one payment through the whole stack: the services' Node
 * flags differ from 20's there (libs/platform node-flags.ts), and the rest of 22 lies between the two
 * lines that run everything, at a minute of CI's time instead of four.
 */
const OTHER_NODES = [
  { major: '24', flag: 'TEST_NODE24', what: 'unit and integration tiers', tiers: '\\.(unit|int)\\.spec\\.ts$' },
  { major: '22', flag: 'TEST_NODE22', what: 'unit tier and the deploy specs', tiers: '\\.unit\\.spec\\.ts$|/deploy/[^/]+\\.int\\.spec\\.ts$' },
];

/** One Jest run on the given Node binary; its counts come from Jest's JSON report. */
function runJest(node, args, env, reportName) {
  const results = join(root, 'tmp', reportName);
  rmSync(results, { force: true });
  const jest = run(node, [bin('jest', 'bin/jest.js'), '--json', `--outputFile=${results}`, ...(process.env.CI ? ['--ci'] : []), ...args], {
    cwd: root,
    stdio: 'inherit',
    env,
    timeoutMs: 60 * 60_000,
  });
  reapTestLeftovers();
  if (!existsSync(results)) return { ok: false, passed: 0, failed: 1, skipped: 0 };
  const summary = JSON.parse(readFileSync(results, 'utf8'));
  if (summary.numFailedTestSuites > 0 && summary.numFailedTests === 0) out.fail(`${summary.numFailedTestSuites} test file(s) failed to run`);
  return {
    ok: jest.status === 0,
    passed: summary.numPassedTests,
    // A file that failed to run counts as a failure even when no test in it did.
    failed: Math.max(summary.numFailedTests, summary.numFailedTestSuites),
    skipped: summary.numPendingTests + summary.numTodoTests,
  };
}

function gate(result, what) {
  if (!result.ok) {
    out.fail(`${what}; fix them before the tests run`);
    console.log('\nSummary: 0 passed, 1 failed');
    process.exit(1);
  }
}

/** Services spawned by a test run that was itself killed (see libs/testing service-process.ts). */
function reapTestLeftovers() {
  const dir = join(root, 'tmp', 'test-pids');
  if (!existsSync(dir)) return;
  for (const name of require('node:fs').readdirSync(dir)) {
    const pid = Number(name);
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(join(root, 'dist', 'apps'))) process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
    rmSync(join(dir, name), { force: true });
  }
}

main().catch((error) => {
  out.fail(error.stack ?? error.message);
  process.exit(1);
});
