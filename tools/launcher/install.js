const { existsSync, statSync } = require('node:fs');
const { join } = require('node:path');
const out = require('./console');
const { run } = require('./run-command');

/** Installs packages from package-lock.json when node_modules is missing or older than the lock file. */
function ensurePackages(root) {
  out.step('Packages');
  const lock = join(root, 'package-lock.json');
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) {
    out.info('node_modules is up to date with package-lock.json');
    return;
  }
  out.info('npm ci (installing exactly what package-lock.json pins) ...');
  const result = run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit', timeoutMs: 15 * 60_000 });
  if (!result.ok) {
    out.fail('npm ci failed; see the npm output above');
    process.exit(1);
  }
}

module.exports = { ensurePackages };
