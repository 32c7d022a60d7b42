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
  const options = { cwd: root, timeoutMs: 15 * 60_000 };
  let result = run('npm', ['ci', '--no-audit', '--no-fund'], options);
  if (!result.ok && /can only install packages when your package\.json and package-lock\.json/.test(result.stderr)) {
    // Registries that lack some platforms' optional binaries (other OSes' builds) make `npm ci` refuse the
    // lock file; `npm install` installs the same locked versions and skips what this platform cannot use.
    out.info('npm ci refused the lock file (optional packages for other platforms are missing here); npm install ...');
    result = run('npm', ['install', '--no-audit', '--no-fund'], options);
  }
  if (!result.ok) {
    process.stderr.write(result.stdout + result.stderr);
    out.fail('installing packages failed; see the npm output above');
    process.exit(1);
  }
  out.info('packages installed');
}

module.exports = { ensurePackages };
