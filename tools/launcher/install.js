const { existsSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');
const out = require('./console');
const { run } = require('./run-command');

/** A CI run (CI set, as CI services set it, and not to false or 0). */
const underCi = (env) => Boolean(env.CI) && !['false', '0'].includes(String(env.CI).trim().toLowerCase());

/** The dependency lists package.json declares and the lock file records of it, in its root package entry. */
const DEPENDENCY_LISTS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];

/**
 * The dependencies package.json declares otherwise than package-lock.json recorded them (added, removed or given
 * another range since the lock file was written), as `name` lines; empty when they agree, or when either file cannot
 * be read (npm says so itself). Then the lock file itself is out of date, not merely missing other platforms'
 * optional packages, and npm install --no-save installs versions it does not pin.
 */
function lockDrift(root) {
  let declared;
  let recorded;
  try {
    declared = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    recorded = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages?.[''];
  } catch {
    return [];
  }
  if (!declared || !recorded) return [];
  const drift = new Set();
  for (const list of DEPENDENCY_LISTS) {
    const wanted = declared[list] ?? {};
    const locked = recorded[list] ?? {};
    for (const name of new Set([...Object.keys(wanted), ...Object.keys(locked)])) if (wanted[name] !== locked[name]) drift.add(name);
  }
  return [...drift].sort();
}

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
    const drift = lockDrift(root);
    if (drift.length > 0) {
      // Not another platform's binaries: package.json changed without the lock file, whose versions npm install now passes over.
      out.warn(
        `package.json and package-lock.json disagree on ${drift.join(', ')}: npm install --no-save installs what package.json asks for, ` +
          'versions the lock file does not pin. The lock file needs regenerating: run npm install and commit the package-lock.json it writes',
      );
      out.info('npm install --no-save (package-lock.json left as it is) ...');
    } else {
      out.info('npm ci refused the lock file (optional packages for other platforms are missing here); npm install --no-save (package-lock.json left as it is) ...');
    }
    result = runCommand('npm', ['install', '--no-save', '--no-audit', '--no-fund'], options);
  }
  if (!result.ok) {
    process.stderr.write(result.stdout + result.stderr);
    out.fail('installing packages failed; see the npm output above');
    process.exit(1);
  }
  out.info('packages installed');
}

module.exports = { ensurePackages, lockDrift, underCi };
