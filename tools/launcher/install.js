const { existsSync, statSync } = require('node:fs');
const { join } = require('node:path');
const out = require('./console');
const { run } = require('./run-command');

/** A CI run (CI set, as CI services set it, and not to false or 0). */
const underCi = (env) => Boolean(env.CI) && !['false', '0'].includes(String(env.CI).trim().toLowerCase());

/**
 * Installs packages from package-lock.json when node_modules is missing or older than the lock file.
 * `env` and `runCommand` are the environment and the command runner (stand-ins in the specs).
 */
function ensurePackages(root, env = process.env, runCommand = run) {
  out.step('Packages');
  const lock = join(root, 'package-lock.json');
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) {
    out.info('node_modules is up to date with package-lock.json');
    return;
  }
  out.info('npm ci (installing exactly what package-lock.json pins) ...');
  const options = { cwd: root, timeoutMs: 15 * 60_000 };
  let result = runCommand('npm', ['ci', '--no-audit', '--no-fund'], options);
  if (!result.ok && /can only install packages when your package\.json and package-lock\.json/.test(result.stderr)) {
    if (underCi(env)) {
      // A CI run tests the lock file as committed: npm install could rewrite it, and the run would pass on another one.
      process.stderr.write(result.stdout + result.stderr);
      out.fail(
        'npm ci refused package-lock.json (see the npm output above); under CI the launcher does not fall back to npm install, ' +
          'which may rewrite the lock file: run npm install on a developer machine and commit the package-lock.json it writes, ' +
          'or make the registry serve every package the lock file names',
      );
      process.exit(1);
    }
    // Registries that lack some platforms' optional binaries (other OSes' builds) make `npm ci` refuse the
    // lock file; `npm install` installs the same locked versions and skips what this platform cannot use.
    // --no-save: it reads package-lock.json but writes neither it nor package.json (--package-lock=false
    // would ignore the lock file altogether and install whatever package.json's ranges resolve to today).
    out.info('npm ci refused the lock file (optional packages for other platforms are missing here); npm install --no-save (package-lock.json left as it is) ...');
    result = runCommand('npm', ['install', '--no-save', '--no-audit', '--no-fund'], options);
  }
  if (!result.ok) {
    process.stderr.write(result.stdout + result.stderr);
    out.fail('installing packages failed; see the npm output above');
    process.exit(1);
  }
  out.info('packages installed');
}

module.exports = { ensurePackages };
