#!/usr/bin/env node
/**
 * `npm test`: the same set-up as `npm start` (packages, build, Postgres/NATS/
 * Redis), then type-check, lint and every Jest tier. Extra arguments go to
 * Jest (`npm test -- apps/sessions`). Under CI (CI=true) Jest runs once on each LTS line the code
 * must run on (jestPasses below; TEST_NODE24=1 or TEST_NODE22=1 adds one of them outside CI).
 * Ends with "Summary: N passed, N failed", every run added up.
 */
const { existsSync, readFileSync, rmSync } = require('node:fs');
const { join } = require('node:path');
const out = require('./console');
const { ensurePackages, underCi } = require('./install');
const { natsServerPid, stopNatsServer, testNatsEnv } = require('./nats-server');
const { run, runInBackground } = require('./run-command');

const root = join(__dirname, '..', '..');
/** A package's command-line entry (some packages' exports maps hide their bin files from require.resolve). */
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);

async function main() {
  const jestArgs = process.argv.slice(2);
  ensurePackages(root);
  out.step('Build (swc → dist/)');
  require('../build/build').build({ quiet: true });

  const { ensureInfrastructure, ensureChromium } = require('./infrastructure');
  // A CI run's clone is thrown away after it: so is the NATS server it started (only one it started: a server
  // that was already up may serve an `npm start` beside it), however the run ends, cancelled by a signal included.
  if (underCi(process.env)) {
    const serverBefore = natsServerPid(root);
    process.once('exit', () => natsServerPid(root) !== serverBefore && stopNatsServer(root) && out.info('NATS: stopped the server this run started (CI)'));
    for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]]) process.once(signal, () => process.exit(code));
  }
  const { infra, rolePasswords } = await require('./setup-lock').withSetupLock(root, async () => {
    const infra = await ensureInfrastructure(root, process.env);
    return { infra, rolePasswords: await require('./postgres-roles').ensurePostgresRoles(root, infra.DATABASE_URL) };
  });
  if (require('./browser-specs').selectsBrowserSpecs(root, jestArgs)) ensureChromium();
  else out.info('Chromium: not needed, no browser spec is selected');
  const admin = new URL(infra.DATABASE_URL);
  admin.pathname = '/postgres';
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
    // Side by side: each keeps one core busy for most of a minute on a slow machine, and nothing else runs yet.
    out.step(
      "Type-check (tsc --noEmit: the tree, and the dashboard's web app with its own tsconfig) and lint (eslint over the whole tree: apps, libs, tools, deploy, browser scripts; Nx module boundaries), side by side",
    );
    const nxEnv = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
    const lint = async () => {
      // The boundary rule reads Nx's project graph; computing it first makes the rule run instead of skipping.
      const graph = await runInBackground(process.execPath, [bin('nx', 'dist/bin/nx.js'), 'show', 'projects'], { cwd: root, env: nxEnv });
      if (!graph.ok) return { ...graph, what: 'Nx project graph errors' };
      return { ...(await runInBackground(process.execPath, [bin('eslint', 'bin/eslint.js'), '.'], { cwd: root, timeoutMs: 10 * 60_000, env: nxEnv })), what: 'lint errors' };
    };
    const checks = await Promise.all([...typeCheck(root), lint()]);
    for (const check of checks) {
      process.stdout.write(check.stdout);
      process.stderr.write(check.stderr);
    }
    for (const check of checks) gate(check, check.what);
  }

  const runs = [];
  for (const pass of jestPasses(process.env)) {
    out.step(`Tests on Node ${pass.label} (jest: ${pass.tiers.what}; services spawned by the tests run on it too)`);
    const args = jestArgs.length > 0 || pass.tiers.pattern === null ? jestArgs : ['--testPathPatterns', pass.tiers.pattern];
    runs.push(runJest(pass.node(), args, env, pass.report));
  }
  const passed = runs.reduce((sum, result) => sum + result.passed, 0);
  const failed = runs.reduce((sum, result) => sum + result.failed, 0);
  const skipped = runs.reduce((sum, result) => sum + result.skipped, 0);
  console.log(`\nSummary: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(runs.every((result) => result.ok) ? 0 : 1);
}

/**
 * The type-checks, as `npm run typecheck` runs them: tsconfig.json covers apps, libs, tools, deploy
 * and examples but leaves out the dashboard's web app (React, DOM types, bundler resolution), which
 * has its own tsconfig. Each runs in its own process, side by side; `dir` is the checkout to check.
 * One promise per check, resolving with its result and what its failure means.
 */
const TYPE_CHECKS = [
  { project: 'tsconfig.json', what: 'type errors' },
  { project: join('apps', 'dashboard', 'web', 'tsconfig.json'), what: "type errors in the dashboard's web app (apps/dashboard/web)" },
];
const typeCheck = (dir) =>
  TYPE_CHECKS.map(({ project, what }) =>
    runInBackground(process.execPath, [bin('typescript', 'bin/tsc'), '-p', project, '--noEmit'], { cwd: dir, timeoutMs: 10 * 60_000 }).then((result) => ({ ...result, what })),
  );

/** What a Jest pass runs: every tier, or the subset that shows a Node line runs the code. */
const EVERY_TIER = { what: 'unit, integration, end-to-end', pattern: null };
const LINE_CHECK = {
  what: 'unit tier, deploy specs, launcher specs',
  pattern: '\\.unit\\.spec\\.ts$|/deploy/[^/]+\\.int\\.spec\\.ts$|/tools/launcher/[^/]+\\.spec\\.ts$',
};

/**
 * The Jest passes of this run. Outside CI, every tier on the machine's own Node (TEST_NODE24=1
 * adds every tier on 24, TEST_NODE22=1 the line check on 22). Under CI, once per LTS line the
 * code must run on: every tier on Node 24, which the production images run (deploy/Dockerfile),
 * so that a runtime incompatibility fails CI and not a deployment; the line check on the machine's
 * own Node (20 on these machines; `npm start` runs on it) and on 22, which development machines
 * may run. The line check is the unit tier, the deploy specs, which boot every service and take
 * one payment through the whole stack (the services' Node flags differ between 20 and 22+: libs/platform
 * node-flags.ts), and the launcher's specs, which run `npm start` itself. Every tier on two lines
 * took a slow machine's CI to its 20 minutes (docs/PERFORMANCE.md, "CI on a slow machine, and two
 * webhook leads").
 */
function jestPasses(environment) {
  const { ensurePinnedNode } = require('./pinned-node');
  const own = process.versions.node.split('.')[0];
  const onOwn = (tiers) => ({ label: `${process.versions.node}, this machine's`, node: () => process.execPath, tiers, report: `jest-results-node${own}.json` });
  const onPinned = (major, tiers) => ({ label: `${major} LTS, pinned`, node: () => ensurePinnedNode(major), tiers, report: `jest-results-node${major}.json` });
  if (!environment.CI) {
    return [
      onOwn(EVERY_TIER),
      ...(environment.TEST_NODE24 && own !== '24' ? [onPinned('24', EVERY_TIER)] : []),
      ...(environment.TEST_NODE22 && own !== '22' ? [onPinned('22', LINE_CHECK)] : []),
    ];
  }
  return [
    own === '24' ? onOwn(EVERY_TIER) : onPinned('24', EVERY_TIER),
    ...(own === '24' ? [] : [onOwn(LINE_CHECK)]),
    ...(own === '22' ? [] : [onPinned('22', LINE_CHECK)]),
  ];
}

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
  // Jest can end badly after every test passed (an error thrown outside any test crashes its process): that is a failure too.
  const crashed = jest.status !== 0 && summary.numFailedTests === 0 && summary.numFailedTestSuites === 0;
  if (crashed) out.fail(`Jest ended with ${jest.status === null ? 'a signal' : `code ${jest.status}`} after its tests passed: an error outside any test (see above)`);
  return {
    ok: jest.status === 0,
    passed: summary.numPassedTests,
    // A file that failed to run counts as a failure even when no test in it did.
    failed: Math.max(summary.numFailedTests, summary.numFailedTestSuites, crashed ? 1 : 0),
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

/**
 * Services spawned by a test run that was itself killed (see libs/testing
 * service-process.ts): each file names a service's pid and holds its test
 * process's pid. A service whose test process still runs belongs to another
 * run in this checkout, and is left alone.
 */
function reapTestLeftovers() {
  const dir = join(root, 'tmp', 'test-pids');
  if (!existsSync(dir)) return;
  for (const name of require('node:fs').readdirSync(dir)) {
    const pid = Number(name);
    try {
      const owner = Number(readFileSync(join(dir, name), 'utf8').split(' ')[0]);
      if (owner > 0 && existsSync(`/proc/${owner}`)) continue;
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(join(root, 'dist', 'apps'))) process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
    rmSync(join(dir, name), { force: true });
  }
}

module.exports = { typeCheck };
// Only as `npm test`: a spec requires this file for typeCheck alone.
if (require.main === module) {
  main().catch((error) => {
    out.fail(error.stack ?? error.message);
    process.exit(1);
  });
}
