#!/usr/bin/env node
/**
 * `npm run bench`: the usual set-up, then the benchmark (tools/bench/run-bench.ts) against a fresh stack,
 * on the Node that runs npm, or with BENCH_NODE=24 on the images' Node 24 LTS (22 likewise: any major pinned-node.js pins).
 * `npm run bench -- --compare A.json B.json`: the difference of two reports (tools/bench/compare.ts).
 * `npm run bench -- --profile-summary REPORT.json`: a BENCH_PROFILE run's profiles, path by path, by the project's
 * folders (tools/bench/profile-summary.ts).
 */
const { spawn, spawnSync } = require('node:child_process');
const { constants } = require('node:os');
const { join, resolve } = require('node:path');
const { ensurePackages } = require('./install');
const { testNatsEnv } = require('./nats-server');
const { ensurePinnedNode } = require('./pinned-node');

const root = join(__dirname, '..', '..');

/**
 * The Node binary that runs the bench, its baseline and every service: with BENCH_NODE, that pinned Node LTS
 * (tools/node<major>, installed on first use; pinned-node.js says which majors it pins and refuses any other),
 * else the Node that runs npm. Only an unset BENCH_NODE means the latter: an empty one is refused like any
 * other value no Node is pinned for (README: an empty value stops the bench).
 */
function benchNode(env, ensurePinned = ensurePinnedNode) {
  const major = env.BENCH_NODE;
  if (major === undefined) return process.execPath;
  try {
    return ensurePinned(major);
  } catch (error) {
    throw new Error(`BENCH_NODE=${major === '' ? '""' : major}: ${error.message} (unset: the Node that runs npm)`, { cause: error });
  }
}

async function main() {
  const compare = process.argv.indexOf('--compare');
  const summary = process.argv.indexOf('--profile-summary');
  // A run's Node first: an unknown BENCH_NODE fails before anything is set up.
  const node = compare < 0 && summary < 0 ? benchNode(process.env) : process.execPath;
  ensurePackages(root);
  require('../build/build').build({ quiet: true });
  if (compare >= 0) {
    const files = process.argv.slice(compare + 1, compare + 3).map((file) => resolve(file));
    const result = spawnSync(process.execPath, [join(root, 'dist', 'tools', 'bench', 'compare.js'), ...files], { stdio: 'inherit' });
    process.exit(result.status ?? 1);
  }
  if (summary >= 0) {
    const report = process.argv[summary + 1] ? [resolve(process.argv[summary + 1])] : [];
    const result = spawnSync(process.execPath, [join(root, 'dist', 'tools', 'bench', 'profile-summary.js'), ...report, join(root, 'bench', 'profiles')], { stdio: 'inherit' });
    process.exit(result.status ?? 1);
  }
  const { infra, rolePasswords } = await require('./setup-lock').withSetupLock(root, async () => {
    const infra = await require('./infrastructure').ensureInfrastructure(root, process.env);
    return { infra, rolePasswords: await require('./postgres-roles').ensurePostgresRoles(root, infra.DATABASE_URL) };
  });
  const admin = new URL(infra.DATABASE_URL);
  admin.pathname = '/postgres';
  // Node refuses --cpu-prof in NODE_OPTIONS; the services are forked with the bench's own flags, so they inherit these.
  const profile = process.env.BENCH_PROFILE === 'true' ? ['--cpu-prof', `--cpu-prof-dir=${join(root, 'bench', 'profiles')}`] : [];
  // BENCH_NODE=24 (or 22): the bench, its baseline and every service run on `node`, that pinned Node LTS (tools/node24, the images').
  const status = await runBench(node, [...profile, join(root, 'dist', 'tools', 'bench', 'run-bench.js')], {
    stdio: 'inherit',
    env: { ...process.env, TEST_POSTGRES_URL: admin.href, ...testNatsEnv(root), TEST_REDIS_URL: infra.REDIS_URL, TEST_POSTGRES_ROLE_PASSWORDS: JSON.stringify(rolePasswords) },
  });
  process.exit(status);
}

/**
 * Runs the bench and resolves with its exit code (128 + the signal's number when a signal ended it). The bench
 * cleans up on SIGINT and SIGTERM and exits at once on a second one (tools/bench/interruption.ts), so it must get
 * each signal once: it runs in a process group of its own (a terminal's Ctrl-C reaches this process only, and
 * the services the bench forks get none: the bench stops them), and this process passes each signal on, staying
 * until the bench has stopped its stack and written its report.
 */
/** Signals that reach the launcher within this of each other are one: a single Ctrl-C comes twice under npm. */
const SAME_SIGNAL_MS = 1000;

function runBench(node, args, options) {
  return new Promise((resolve, reject) => {
    const bench = spawn(node, args, { ...options, detached: true });
    // A closed terminal's SIGHUP would end this process and leave the bench, in its own group, running: a SIGTERM for it.
    // One Ctrl-C reaches this process twice (the terminal's, and npm's passing it on to its script): a signal within a
    // second of the last one passed on is that same one, not the second that tells the bench to exit at once.
    let lastPassedAt = -Infinity;
    const passOn = (signal) => {
      if (Date.now() - lastPassedAt < SAME_SIGNAL_MS) return;
      lastPassedAt = Date.now();
      bench.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
    };
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    for (const signal of signals) process.on(signal, passOn);
    bench.once('error', reject);
    bench.once('exit', (code, signal) => {
      for (const name of signals) process.off(name, passOn);
      resolve(code ?? 128 + (constants.signals[signal] ?? 0));
    });
  });
}

if (require.main === module) {
  main().catch((error) => {
    console.error(`error: ${error.message}`);
    process.exit(1);
  });
}

module.exports = { benchNode };
