/**
 * Makes sure Postgres, NATS with JetStream and Redis answer, in this order of
 * preference (PRODUCT-RULES §D5):
 *   1. a running Docker engine: `docker compose up -d` for those of postgres and redis that are down
 *      (ports on 127.0.0.1 only);
 *   2. servers already listening at the configured URLs;
 *   3. servers installed on this machine but stopped: start them;
 *   4. as root with apt: install Debian's postgresql, nats-server and redis-server, then start them;
 *   5. otherwise stop with a message saying exactly what to install.
 * NATS is the project's own server with its generated permissions
 * (nats-server.js), unless the caller names one in NATS_URL.
 */
const net = require('node:net');
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');
const out = require('./console');
const { run, has } = require('./run-command');
const { ensureNatsServer } = require('./nats-server');
const { writePrivateFile } = require('./private-file');

const DEFAULTS = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pp',
  REDIS_URL: 'redis://127.0.0.1:6379',
};

const isLocal = (host) => ['127.0.0.1', 'localhost', '::1'].includes(host);

function reachable(host, port, timeoutMs = 800) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function waitReachable(host, port, seconds = 20) {
  for (let i = 0; i < seconds * 5; i++) {
    if (await reachable(host, port)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const components = (env) => [
  { name: 'Postgres', url: new URL(env.DATABASE_URL), defaultPort: 5432, start: startPostgres, packageName: 'postgresql', binary: 'pg_ctlcluster' },
  // A NATS server the caller names is theirs to run: never start an open one in its place.
  ...(env.NATS_URL ? [{ name: 'NATS', url: new URL(env.NATS_URL), defaultPort: 4222, packageName: 'nats-server', binary: 'nats-server' }] : []),
  { name: 'Redis', url: new URL(env.REDIS_URL), defaultPort: 6379, start: startRedis, packageName: 'redis-server', binary: 'redis-server' },
];

function startPostgres() {
  const versions = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql') : [];
  if (versions.length === 0) return run('sh', ['-c', 'false']);
  // The newest by number: as text, "9.6" sorts after "16".
  const newest = versions.sort((a, b) => parseFloat(a) - parseFloat(b)).at(-1);
  return run('pg_ctlcluster', ['--skip-systemctl-redirect', newest, 'main', 'start']);
}

function startRedis(root, port) {
  const binary = has('redis-server') ? 'redis-server' : '/usr/bin/redis-server';
  // AOF on and noeviction: BullMQ's queues must not be evicted or lost on restart. Its files in .dev/redis
  // (this user's alone), not the shared /tmp, which other users can read and a reboot empties.
  const dir = join(root, '.dev', 'redis');
  require('node:fs').mkdirSync(dir, { recursive: true, mode: 0o700 });
  require('node:fs').chmodSync(dir, 0o700);
  // No RDB snapshots (`--save ""`): the append-only file keeps the data, and a snapshot that cannot be written (the
  // checkout holding `dir` was deleted while this Redis ran on) would make Redis refuse every write (MISCONF).
  return run(binary, ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', String(port), '--appendonly', 'yes', '--save', '', '--maxmemory-policy', 'noeviction', '--dir', dir]);
}

function dockerEngineRuns() {
  return has('docker') && run('docker', ['info'], { timeoutMs: 5000 }).ok;
}

function installWithApt(packages) {
  if (process.getuid?.() !== 0 || !has('apt-get')) return false;
  out.info(`installing ${packages.join(', ')} from Debian's packages (apt-get) ...`);
  const update = run('apt-get', ['update', '-qq'], { timeoutMs: 10 * 60_000 });
  if (!update.ok) return false;
  return run('apt-get', ['install', '-y', '-qq', ...packages], {
    timeoutMs: 15 * 60_000,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  }).ok;
}

/** The docker compose service that serves each component compose can run (deploy/compose.local-ports.yml). */
const COMPOSE_SERVICES = { Postgres: 'postgres', Redis: 'redis' };

/**
 * The compose services worth starting for the components that are down: only those compose
 * serves where the launcher looks for them, on the loopback at their default port (compose
 * publishes nowhere else). A component that answers is left alone: compose would fail to
 * publish its port, or serve a second server beside it.
 */
function composeServicesFor(down) {
  return down
    .filter((c) => COMPOSE_SERVICES[c.name] && isLocal(c.url.hostname) && Number(c.url.port || c.defaultPort) === c.defaultPort)
    .map((c) => COMPOSE_SERVICES[c.name]);
}

/**
 * `services` (postgres, redis: those down) from docker-compose.yml, published on 127.0.0.1 only
 * (deploy/compose.local-ports.yml, which also runs Redis without ACL users for local use). Compose
 * refuses to start while a required secret is unset, so development values are generated once into
 * .dev/compose-secrets.json. DATABASE_URL, unless the caller set one, gets compose's superuser
 * password only once compose has started its Postgres; a failed run leaves the components to the
 * next ways (servers installed here). Returns whether compose succeeded.
 */
function startComposeInfrastructure(root, env, callerEnv, services, runCommand = run) {
  const project = devComposeProject(root);
  out.info(`a Docker engine runs: docker compose -p ${project} up -d ${services.join(' ')} (published on 127.0.0.1 only)`);
  const composeEnv = { ...composeDevSecrets(root), ...require('./postgres-roles').composePasswords(root), ...process.env };
  const files = ['-f', 'docker-compose.yml', '-f', join('deploy', 'compose.local-ports.yml')];
  const result = runCommand('docker', ['compose', '-p', project, ...files, 'up', '-d', '--wait', ...services], { cwd: root, stdio: 'inherit', timeoutMs: 5 * 60_000, env: composeEnv });
  if (!result.ok) {
    out.warn(`docker compose up failed (${result.status === null ? 'no exit code' : `exit code ${result.status}`}${result.stderr ? `: ${result.stderr.trim()}` : ''}); trying the servers installed on this machine`);
    return false;
  }
  if (services.includes('postgres') && !callerEnv.DATABASE_URL) {
    // The caller's own POSTGRES_PASSWORD, if set, wins over the generated one, and may hold @ / # or %.
    const url = new URL('postgres://postgres@127.0.0.1:5432/pp');
    url.password = encodeURIComponent(composeEnv.POSTGRES_PASSWORD);
    env.DATABASE_URL = url.href;
  }
  return true;
}

/**
 * The launcher's own compose project, apart from the one `docker compose up` makes in this checkout (named after
 * its folder): on a host that runs the deployed stack, starting the launcher's Postgres and Redis under that
 * stack's project would recreate its containers with the local settings (no Redis ACL, other passwords).
 */
function devComposeProject(root) {
  const name = require('node:path').basename(root).toLowerCase().replace(/[^a-z0-9_-]/g, '');
  return `${name || 'pp'}-dev`;
}

/** A generated value for every `${VAR:?…}` docker-compose.yml requires, kept in .dev/ (git-ignored, mode 600). */
function composeDevSecrets(root) {
  const { randomBytes } = require('node:crypto');
  const { readFileSync } = require('node:fs');
  const file = join(root, '.dev', 'compose-secrets.json');
  const kept = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const required = [...readFileSync(join(root, 'docker-compose.yml'), 'utf8').matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((m) => m[1]);
  for (const name of required) {
    kept[name] ??= name === 'WEBHOOK_SECRET_KEYS' ? `dev1:${randomBytes(32).toString('base64')}` : randomBytes(24).toString('hex');
  }
  writePrivateFile(file, JSON.stringify(kept, null, 2));
  return kept;
}

/** Ensures every component answers; returns the environment to pass to services. */
async function ensureInfrastructure(root, callerEnv) {
  out.step('Infrastructure: Postgres, NATS (JetStream), Redis');
  const env = { ...DEFAULTS, ...pick(callerEnv, [...Object.keys(DEFAULTS), 'NATS_URL']) };
  const list = components(env);
  const down = [];
  for (const c of list) {
    if (await reachable(c.url.hostname, c.url.port || c.defaultPort)) out.info(`${c.name}: answering at ${c.url.host}`);
    else down.push(c);
  }
  const composeServices = composeServicesFor(down);
  if (composeServices.length > 0 && existsSync(join(root, 'docker-compose.yml')) && dockerEngineRuns()) {
    startComposeInfrastructure(root, env, callerEnv, composeServices);
  }
  const stillDown = [];
  const installed = new Set();
  for (const c of down) {
    const port = c.url.port || c.defaultPort;
    if (await reachable(c.url.hostname, port)) continue;
    if (!isLocal(c.url.hostname)) {
      stillDown.push(c);
      continue;
    }
    if (!has(c.binary) && !existsSync(`/usr/sbin/${c.binary}`) && !existsSync(`/usr/bin/${c.binary}`)) {
      if (!installWithApt([c.packageName])) {
        stillDown.push(c);
        continue;
      }
      installed.add(c.name);
    }
    if (!c.start) {
      stillDown.push(c);
      continue;
    }
    out.info(`${c.name}: not running; starting the installed server ...`);
    c.start(root, port);
    if (await waitReachable(c.url.hostname, port)) out.info(`${c.name}: started at ${c.url.host}`);
    else stillDown.push(c);
  }
  if (stillDown.length > 0) {
    for (const c of stillDown) out.fail(`${c.name} is unreachable at ${c.url.host} (${redact(c.url)})`);
    out.fail(
      `install and start them, e.g. on Debian: apt-get install ${stillDown.map((c) => c.packageName).join(' ')} ` +
        '(NATS must run with JetStream: nats-server -js), or run a Docker engine and retry, ' +
        'or point DATABASE_URL / NATS_URL / REDIS_URL at running servers',
    );
    process.exit(1);
  }
  env.DATABASE_URL = await checkPostgres(root, env.DATABASE_URL, installed.has('Postgres'), callerEnv);
  if (env.NATS_URL) await checkJetStream(root, env.NATS_URL);
  else await ensureNatsServer(root, installWithApt);
  await checkRedis(env.REDIS_URL);
  return env;
}

/**
 * Connects, creating the database if needed (`pp` when DATABASE_URL names none: postgres-roles.js
 * projectDatabaseUrl; the database is handed to the owner later, by preparePostgres). A Debian cluster allows only
 * password logins over TCP: for a superuser without a password in the URL, the launcher tries the
 * ones it knows (knownSuperuserPasswords: the one it set earlier, then compose's), or sets a random
 * one when it installed Postgres itself in this run. It never changes the password of a cluster it
 * did not install: it says what to set. `connect` opens a set-up session (a stand-in in the specs).
 */
async function checkPostgres(root, databaseUrl, installedNow, callerEnv = {}, connect = connectSetupClient) {
  const url = new URL(require('./postgres-roles').projectDatabaseUrl(databaseUrl));
  const database = decodeURI(url.pathname.slice(1));
  const adminUrl = (password) => {
    const admin = new URL(url.href);
    admin.pathname = '/postgres';
    if (password !== undefined) admin.password = encodeURIComponent(password);
    return admin.href;
  };
  let client;
  try {
    client = await connect(adminUrl());
  } catch (error) {
    const user = decodeURIComponent(url.username) || 'postgres';
    const mayUseOwn = refusedLogin(error) && isLocal(url.hostname) && !url.password;
    const known = mayUseOwn ? knownSuperuserPasswords(root, user, callerEnv) : [];
    for (const { password, from } of known) {
      try {
        client = await connect(adminUrl(password));
      } catch (refused) {
        if (refusedLogin(refused)) continue;
        throw refused;
      }
      url.password = encodeURIComponent(password);
      out.info(`Postgres: logged in as ${user} with the password in ${from}`);
      break;
    }
    if (!client) {
      const maySet = mayUseOwn && !savedSuperuserPassword(root, user) && installedNow && process.getuid?.() === 0 && /^[a-z_][a-z0-9_]*$/.test(user);
      if (!maySet) {
        out.fail(`Postgres refused the connection at ${redact(url)}: ${error.message}${known.length > 0 ? ` (and with the password in ${known.map((k) => k.from).join(', then ')})` : ''}`);
        out.fail('put the password in DATABASE_URL (postgres://USER:PASSWORD@host:port/pp), or allow the login in pg_hba.conf');
        if (mayUseOwn) {
          // The usual case on a fresh clone: an earlier checkout's launcher set the password and kept it in its own .dev/.
          out.fail(
            `if an earlier checkout of this project set it, its .dev/postgres-superuser.json (or .dev/compose-secrets.json) holds it: copy that file into this checkout's .dev/; ` +
              `or set one yourself (sudo -u ${user} psql -c "ALTER ROLE ${user} PASSWORD '<new password>'") and put it in DATABASE_URL`,
          );
        }
        process.exit(1);
      }
      const password = setSuperuserPassword(root, user);
      url.password = encodeURIComponent(password);
      client = await connect(adminUrl(password));
      out.info(`Postgres: set a password for ${user}'s TCP logins on the cluster just installed (.dev/postgres-superuser.json)`);
    }
  }
  const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
  if (exists.rowCount === 0) {
    // Another launcher starting at the same moment (npm start beside npm test on a fresh cluster) may create it first.
    const created = await client.query(`CREATE DATABASE "${database.replace(/"/g, '')}"`).then(
      () => true,
      (error) => {
        if (error.code === DUPLICATE_DATABASE || error.code === UNIQUE_VIOLATION) return false;
        throw error;
      },
    );
    if (created) out.info(`Postgres: created database ${database}`);
  }
  await client.end();
  return url.href;
}

/** A connected set-up session (postgres-roles.js: its statements and lock waits bounded). */
async function connectSetupClient(url) {
  const { Client } = require('pg');
  const client = new Client(require('./postgres-roles').setupClientOptions(url));
  await client.connect();
  return client;
}

/**
 * SQLSTATEs of a CREATE DATABASE whose database exists: checked by name first (42P04), or, when another session created
 * it while this one copied the template, found by pg_database's unique index (23505).
 */
const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505';

/** Postgres asked for a password, or refused the one given. */
const refusedLogin = (error) => /password|authentication/i.test(error.message);

/**
 * The superuser passwords the launcher knows for `user`, in the order tried: the one it set on a
 * cluster it installed (.dev/postgres-superuser.json); then, when the caller set no DATABASE_URL,
 * the one compose's Postgres was given (startComposeInfrastructure: POSTGRES_PASSWORD from the
 * environment, else .dev/compose-secrets.json). A later run finds that Postgres still answering,
 * skips compose, and would otherwise log in with the default URL, which has no password.
 */
function knownSuperuserPasswords(root, user, callerEnv) {
  const known = [];
  const saved = savedSuperuserPassword(root, user);
  if (saved) known.push({ password: saved, from: '.dev/postgres-superuser.json' });
  const composeFile = join(root, '.dev', 'compose-secrets.json');
  if (!callerEnv.DATABASE_URL && user === 'postgres' && existsSync(composeFile)) {
    if (callerEnv.POSTGRES_PASSWORD) known.push({ password: callerEnv.POSTGRES_PASSWORD, from: 'POSTGRES_PASSWORD' });
    const kept = JSON.parse(require('node:fs').readFileSync(composeFile, 'utf8')).POSTGRES_PASSWORD;
    if (kept && kept !== callerEnv.POSTGRES_PASSWORD) known.push({ password: kept, from: '.dev/compose-secrets.json' });
  }
  return known;
}

const superuserFile = (root) => join(root, '.dev', 'postgres-superuser.json');

function savedSuperuserPassword(root, user) {
  const file = superuserFile(root);
  if (!existsSync(file)) return undefined;
  const saved = JSON.parse(require('node:fs').readFileSync(file, 'utf8'));
  return saved.user === user ? saved.password : undefined;
}

/**
 * A random password for `user` (checked to be a plain identifier), set through the local socket and kept 0600 in .dev.
 * The statement goes to psql on its standard input: a command-line argument would show the password to
 * anyone on the machine (ps, /proc/<pid>/cmdline) while psql runs.
 */
function setSuperuserPassword(root, user, runCommand = run) {
  const password = require('node:crypto').randomBytes(24).toString('hex');
  const result = runCommand('su', ['postgres', '-c', 'psql -X -q -v ON_ERROR_STOP=1'], { input: `ALTER USER ${user} PASSWORD '${password}';\n` });
  if (!result.ok) {
    out.fail(`Postgres: could not set a password for ${user}: ${result.stderr.trim()}`);
    process.exit(1);
  }
  writePrivateFile(superuserFile(root), JSON.stringify({ user, password }, null, 2));
  return password;
}

async function checkJetStream(root, natsUrl) {
  const { connect } = require('nats');
  const { natsConnectionOptions } = require(join(root, 'dist', 'libs', 'platform', 'src', 'nats', 'nats-connection-options.js'));
  let nc;
  try {
    nc = await connect({ ...natsConnectionOptions(natsUrl, 'launcher'), timeout: 3000 });
    await (await nc.jetstreamManager()).getAccountInfo();
  } catch (error) {
    out.fail(`NATS at ${redact(new URL(natsUrl))} has no JetStream (${error.message}); restart it with: nats-server -js`);
    process.exit(1);
  } finally {
    await nc?.close();
  }
}

async function checkRedis(redisUrl) {
  const Redis = require('ioredis');
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const [, policy] = await redis.config('GET', 'maxmemory-policy').catch(() => [null, 'unknown']);
    if (policy !== 'noeviction') out.warn(`Redis maxmemory-policy is ${policy}; BullMQ needs noeviction (redis-cli CONFIG SET maxmemory-policy noeviction)`);
  } catch (error) {
    out.fail(`Redis at ${redact(new URL(redisUrl))} refused: ${error.message}`);
    process.exit(1);
  } finally {
    redis.disconnect();
  }
}

const pick = (source, keys) => Object.fromEntries(keys.filter((k) => source[k]).map((k) => [k, source[k]]));
/** A URL for the terminal: its password (of any user, or none) hidden. */
const redact = (url) => {
  const shown = new URL(url.href);
  if (shown.password) shown.password = '***';
  return shown.href;
};

/**
 * Browser tests drive Debian's Chromium (playwright-core never downloads a
 * browser here): install it when it is missing and apt is available.
 */
function ensureChromium() {
  out.step('Chromium for browser tests');
  if (existsSync('/usr/bin/chromium')) {
    out.info('/usr/bin/chromium is installed');
    return;
  }
  if (installWithApt(['chromium'])) {
    out.info('installed Debian\'s chromium');
    return;
  }
  out.fail('Chromium is missing and could not be installed; install Debian\'s chromium package (apt-get install chromium)');
  process.exit(1);
}

module.exports = { ensureInfrastructure, ensureChromium, setSuperuserPassword, checkPostgres, composeServicesFor, startComposeInfrastructure };
