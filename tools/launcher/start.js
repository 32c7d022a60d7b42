#!/usr/bin/env node
/**
 * `npm start`: from a fresh clone to a running stack. Installs packages,
 * builds, makes sure Postgres/NATS/Redis answer, creates the database roles
 * and migrates every schema as the owner, starts every service as its own
 * process (each logging in to Postgres as its own role), waits for an all-green
 * /readyz, seeds a demo merchant once and prints the URLs and demo keys.
 * Ctrl-C stops everything. A service that crashes stops the whole stack with
 * a message naming it (restart policy belongs to docker compose / Kubernetes).
 */
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const out = require('./console');
const { ensurePackages } = require('./install');
const { run } = require('./run-command');

const root = join(__dirname, '..', '..');
/** The services once started: an error after that stops them before the launcher exits. */
let group;

async function main() {
  // First, before anything rewrites node_modules or dist/ under a stack that runs: one launcher per gateway port.
  const { PidFile } = require('./pid-file');
  const pidFile = new PidFile(root, process.env.GATEWAY_PORT ?? 3000);
  pidFile.claim();
  // Exiting before any service started (infrastructure missing, say): the file is of no use to the next start.
  process.on('exit', () => {
    if (!pidFile.holdsServices()) pidFile.release();
  });
  ensurePackages(root);
  out.step('Build (swc → dist/)');
  if (process.env.LAUNCHER_SKIP_BUILD === 'true') {
    // Set by the launcher's own end-to-end tests: Jest built dist/ already, and rebuilding it here would
    // rewrite files under services that other test files are starting at that moment.
    out.info('skipped: LAUNCHER_SKIP_BUILD=true');
  } else {
    require('../build/build').build({ quiet: true });
    out.info('compiled apps/ and libs/');
  }

  const { ensureInfrastructure } = require('./infrastructure');
  const { withSetupLock } = require('./setup-lock');
  const { infra, natsUrls, postgres, secrets } = await withSetupLock(root, async () => {
    const infra = await ensureInfrastructure(root, process.env);
    out.step('Postgres roles, migrations and JetStream streams');
    const natsUrls = require('./nats-server').natsIdentityUrls(root, process.env);
    const postgres = await require('./postgres-roles').preparePostgres(root, infra.DATABASE_URL, natsUrls.migrate);
    // The gateway's tokens, made once into .dev/secrets.json, as the identities and roles are.
    return { infra, natsUrls, postgres, secrets: require('./dev-secrets').devSecrets(root) };
  });
  const checkoutOrigin = `http://localhost:${process.env.CHECKOUT_PORT ?? 3001}`;
  const env = {
    CHECKOUT_URL_BASE: checkoutOrigin,
    SDK_URL: checkoutOrigin,
    GATEWAY_URL: `http://127.0.0.1:${process.env.GATEWAY_PORT ?? 3000}`,
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    // Plain http://localhost: a Secure cookie would not come back.
    DASHBOARD_SECURE_COOKIE: 'false',
    ...secrets,
    ...process.env,
    ...infra,
  };
  const gatewayPort = Number(env.GATEWAY_PORT ?? 3000);

  const database = decodeURIComponent(new URL(env.DATABASE_URL).pathname.slice(1)) || 'pp';
  // The superuser's URL served the set-up only; each service with a schema gets its own role's.
  delete env.DATABASE_URL;
  const serviceEnv = (service) => (postgres.serviceUrls[service] ? { DATABASE_URL: postgres.serviceUrls[service] } : {});
  const metricsPorts = metricsPortsAfter(gatewayPort);
  const { portPlan, portProblems } = require('./port-plan');
  const problems = await portProblems(portPlan(env, gatewayPort, metricsPorts));
  if (problems.length > 0) {
    for (const problem of problems) out.fail(problem);
    process.exit(1);
  }

  out.step('Services');
  const { SERVICE_NAMES } = require(join(root, 'dist', 'libs', 'contracts', 'src', 'services.js'));
  const { ServiceGroup } = require('./service-group');
  group = new ServiceGroup(
    root,
    SERVICE_NAMES,
    env,
    (service) => ({
      NATS_URL: natsUrls[service],
      ...serviceEnv(service),
      ...(metricsPorts[service] ? { METRICS_PORT: String(metricsPorts[service]) } : {}),
    }),
    pidFile,
  );
  let crashed = false;
  const shutdown = async (code) => {
    await group.stop();
    process.exit(code);
  };
  group.start((service, code, signal) => {
    if (crashed) return;
    crashed = true;
    out.fail(`${service} stopped unexpectedly (${signal ?? `exit code ${code}`}); stopping the other services`);
    void shutdown(1);
  });
  let interrupted = false;
  process.on('SIGINT', () => {
    // A second Ctrl-C does not wait for the services' stop (up to 45 s): it kills them.
    if (interrupted) {
      out.info('killing every service');
      group.kill();
      process.exit(130);
    }
    interrupted = true;
    out.info('stopping every service (Ctrl-C again to kill them) ...');
    void shutdown(0);
  });
  process.on('SIGTERM', () => void shutdown(0));
  out.info(`started ${SERVICE_NAMES.join(', ')}`);
  // Set by the launcher's own end-to-end test only: an error once the services run must stop them.
  if (process.env.LAUNCHER_TEST_FAIL_AFTER_START === 'true') throw new Error('LAUNCHER_TEST_FAIL_AFTER_START is set: failing after the services started');

  out.step(`Waiting for http://localhost:${gatewayPort}/readyz to be all green`);
  const report = await waitReady(gatewayPort, 90_000);
  if (!report) {
    out.fail('the stack did not become ready within 90 s; see the service logs above');
    await shutdown(1);
  }

  out.step('Demo merchant');
  const demo = seedWithCli('demo:seed', demoFileName('demo-merchant', database), { ...env, ...serviceEnv('gateway') });
  const operator = seedWithCli('demo:seed-platform-admin', demoFileName('demo-platform-admin', database), { ...env, ...serviceEnv('gateway') });

  const urls = [
    `gateway    http://localhost:${gatewayPort}   (API under /v1, docs at /docs, /readyz)`,
    `checkout   http://localhost:${env.CHECKOUT_PORT ?? 3001}`,
    `dashboard  http://localhost:${env.DASHBOARD_PORT ?? 3002}`,
  ];
  console.log(out.paint('1;32', '\nReady. Every service answers.\n'));
  for (const line of urls) console.log(`  ${line}`);
  console.log('\n  metrics (Prometheus text, GET /metrics; docs/OPERATIONS.md "Metrics, dashboards and alerts")');
  for (const [service, port] of Object.entries(webMetrics(env, gatewayPort)).concat(Object.entries(metricsPorts))) {
    console.log(`    ${service.padEnd(10)} http://localhost:${port}/metrics`);
  }
  console.log(`\n  admin token   ${env.ADMIN_TOKEN}`);
  if (demo) console.log(`\n  demo merchant ${JSON.stringify(demo, null, 2).replace(/\n/g, '\n  ')}`);
  const dashboardUrl = `http://localhost:${env.DASHBOARD_PORT ?? 3002}`;
  console.log(`\n  dashboard     ${dashboardUrl}`);
  if (demo?.dashboard_user?.password) console.log(`    owner           ${demo.dashboard_user.email} / ${demo.dashboard_user.password}`);
  if (operator) console.log(`    platform admin  ${operator.email} / ${operator.password}`);
  console.log('\nCtrl-C stops every service.\n');
}

/**
 * Services without an HTTP port answer /metrics on METRICS_PORT; on one
 * machine each needs its own, so they follow the gateway's port
 * (3010-3014 by default).
 */
function metricsPortsAfter(gatewayPort) {
  const services = ['sessions', 'ledger', 'ingest', 'refunds', 'webhooks'];
  return Object.fromEntries(services.map((service, i) => [service, gatewayPort + 10 + i]));
}

/** The web apps answer /metrics on their own port. */
const webMetrics = (env, gatewayPort) => ({ gateway: gatewayPort, checkout: env.CHECKOUT_PORT ?? 3001, dashboard: env.DASHBOARD_PORT ?? 3002 });

async function waitReady(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let lastDown = '';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(3000) });
      const body = await response.json();
      if (response.status === 200) return body;
      const down = Object.entries({ ...body.infrastructure, ...body.services })
        .filter(([, v]) => v.status !== 'up')
        .map(([k]) => k)
        .join(', ');
      if (down !== lastDown) out.info(`not yet up: ${down}`);
      lastDown = down;
    } catch {
      // gateway not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return undefined;
}

/**
 * The demo's sign-ins belong to the database they were made in: a launch on another database (the launcher's own
 * end-to-end test, on a throwaway one) keeps its own file, and leaves the ones `npm start` keeps for `pp` as they were.
 */
const demoFileName = (base, database) => (database === 'pp' ? `${base}.json` : `${base}-${database.replace(/[^\w-]/g, '_')}.json`);

/** Runs a gateway CLI seeding command that writes .dev/<fileName> once; answers what the file holds. */
function seedWithCli(command, fileName, env) {
  const cli = join(root, 'dist', 'apps', 'gateway', 'src', 'cli.js');
  const file = join(root, '.dev', fileName);
  if (!existsSync(cli)) {
    out.warn(`the gateway CLI is not built; ${command} skipped`);
    return undefined;
  }
  const result = run(process.execPath, [cli, command, '--out', file], { env, cwd: root });
  if (!result.ok) {
    out.warn(`${command} failed: ${result.stderr.trim() || result.stdout.trim()}`);
    return undefined;
  }
  out.info(`saved in ${file}`);
  return JSON.parse(readFileSync(file, 'utf8'));
}

main().catch(async (error) => {
  out.fail(error.message);
  if (group) {
    out.info('stopping every service ...');
    await group.stop();
  }
  process.exit(1);
});
