import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUS_IDENTITIES, SERVICE_NAMES, type ServiceName } from '@pp/contracts';
import { type BaseConfig, DEPLOY_NATS_CONFIG_PATH, deployNatsServerConfig, loadConfig, passwordVariable } from '@pp/platform';
import { parse, parseAllDocuments } from 'yaml';
import { CheckoutConfig } from '../apps/checkout/src/checkout.config';
import { DashboardConfig } from '../apps/dashboard/src/dashboard.config';
import { GatewayConfig } from '../apps/gateway/src/gateway.config';
import { IngestConfig } from '../apps/ingest/src/ingest.config';
import { LedgerConfig } from '../apps/ledger/src/ledger.config';
import { RefundsConfig } from '../apps/refunds/src/refunds.config';
import { SessionsConfig } from '../apps/sessions/src/sessions.config';
import { WebhooksConfig } from '../apps/webhooks/src/webhooks.config';

/* No Docker engine runs on the build machines, so the deployment files are checked by reading them. */

const root = join(__dirname, '..');
const CONFIGS: Record<ServiceName, new () => BaseConfig> = {
  gateway: GatewayConfig,
  sessions: SessionsConfig,
  ledger: LedgerConfig,
  ingest: IngestConfig,
  refunds: RefundsConfig,
  webhooks: WebhooksConfig,
  checkout: CheckoutConfig,
  dashboard: DashboardConfig,
};
const HTTP_PORTS: Partial<Record<ServiceName, number>> = { gateway: 3000, checkout: 3001, dashboard: 3002 };

interface ComposeService {
  image?: string;
  command?: string[];
  build?: { context: string; dockerfile: string; args: Record<string, string> };
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
}

/** Compose's ${VAR:-default} interpolation, enough to read the defaults; a required ${VAR:?message} reads as a sample secret. */
const interpolate = (value: string) =>
  value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1').replace(/\$\{([A-Z_]+):\?[^}]*\}/g, (_match, name: string) => `sample${name.toLowerCase()}`);
/** The identity and password variable in a NATS_URL of the form nats://<identity>:${NATS_PASSWORD_<IDENTITY>...}@nats:4222. */
const natsIdentityOf = (url: string) => /^nats:\/\/([a-z-]+):\$\{([A-Z_]+):\?[^}]*\}@nats:4222$/.exec(url)?.slice(1);

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService & { volumes?: string[] }>;
  };
  const { services } = compose;

  it('runs Postgres, NATS with JetStream, Redis without eviction and Jaeger, each health-checked', () => {
    expect(services.postgres.image).toMatch(/^postgres:/);
    expect(services.nats.command).toContain('-js');
    expect(services.redis.command).toEqual(expect.arrayContaining(['--maxmemory-policy', 'noeviction', '--appendonly', 'yes']));
    expect(services.jaeger.image).toMatch(/jaeger/);
    for (const name of ['postgres', 'nats', 'redis', 'jaeger']) expect(services[name].healthcheck?.test.length).toBeGreaterThan(0);
  });

  it.each(SERVICE_NAMES)('builds and configures %s from the one Dockerfile', (name) => {
    const service = services[name];
    expect(service).toBeDefined();
    expect(service.build).toEqual({ context: '.', dockerfile: 'deploy/Dockerfile', args: { APP: name } });
    expect(existsSync(join(root, service.build!.dockerfile))).toBe(true);
    expect(service.healthcheck?.test.join(' ')).toContain(HTTP_PORTS[name] ? `:${HTTP_PORTS[name]}/healthz` : `health-probe.js ${name}`);
    for (const dependency of Object.values(service.depends_on ?? {})) expect(dependency.condition).toBe('service_healthy');
    expect(Object.keys(service.depends_on ?? {})).toEqual(expect.arrayContaining(['nats']));
    if (HTTP_PORTS[name]) expect(service.ports).toContain(`${HTTP_PORTS[name]}:${HTTP_PORTS[name]}`);

    // The environment compose gives must pass the app's own boot-time validation.
    const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
    expect(() => loadConfig(CONFIGS[name], env)).not.toThrow();
    const deps = Object.keys(service.depends_on ?? {});
    if (needs(name, 'DATABASE_URL')) expect(deps).toContain('postgres');
    if (needs(name, 'REDIS_URL')) expect(deps).toContain('redis');
  });

  it('publishes no Postgres, NATS or Redis port to the host', () => {
    for (const name of ['postgres', 'nats', 'redis']) expect(services[name].ports).toBeUndefined();
  });

  it('runs NATS with the generated permissions and every identity’s password required from the environment', () => {
    expect(services.nats.command).toEqual(['-js', '-c', '/etc/nats/nats-server.conf']);
    expect(services.nats.volumes).toContain(`./${DEPLOY_NATS_CONFIG_PATH}:/etc/nats/nats-server.conf:ro`);
    for (const identity of BUS_IDENTITIES) {
      expect(services.nats.environment?.[passwordVariable(identity)]).toMatch(new RegExp(`^\\$\\{${passwordVariable(identity)}:\\?`));
    }
  });

  it.each(SERVICE_NAMES)('connects %s to NATS as its own identity', (name) => {
    expect(natsIdentityOf(String(services[name].environment?.NATS_URL))).toEqual([name, passwordVariable(name)]);
  });

  it('builds images that run the compiled service named by the build argument', () => {
    const dockerfile = readFileSync(join(root, 'deploy', 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/ARG APP/);
    expect(dockerfile).toContain('dist/apps/${APP}/src/main.js');
    expect(dockerfile).toContain('tools/build/build.js');
  });
});

describe('deploy/k8s', () => {
  const dir = join(root, 'deploy', 'k8s');
  const documents = readdirSync(dir)
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) => parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((doc) => doc.toJS()));

  it.each(SERVICE_NAMES)('has a Deployment for %s with probes and the shared config', (name) => {
    const deployment = documents.find((doc) => doc.kind === 'Deployment' && doc.metadata.name === name);
    expect(deployment).toBeDefined();
    const [container] = deployment.spec.template.spec.containers;
    expect(container.readinessProbe).toBeDefined();
    expect(container.envFrom).toEqual([{ configMapRef: { name: 'checkout-config' } }, { secretRef: { name: 'checkout-secrets' } }]);
    if (HTTP_PORTS[name]) {
      expect(documents.some((doc) => doc.kind === 'Service' && doc.metadata.name === name)).toBe(true);
    }
  });

  it.each(SERVICE_NAMES)('gives %s its own NATS_URL from the nats-identities Secret, not the shared ConfigMap', (name) => {
    const deployment = documents.find((doc) => doc.kind === 'Deployment' && doc.metadata.name === name);
    const [container] = deployment.spec.template.spec.containers;
    expect(container.env).toEqual([{ name: 'NATS_URL', valueFrom: { secretKeyRef: { name: 'nats-identities', key: name } } }]);
    const identities = documents.find((doc) => doc.kind === 'Secret' && doc.metadata.name === 'nats-identities');
    expect(identities.stringData[name]).toMatch(new RegExp(`^nats://${name}:[^@]+@nats:4222$`));
  });

  it('runs NATS inside the cluster only, with the generated config and every identity’s password from a Secret', () => {
    const config = documents.find((doc) => doc.kind === 'ConfigMap' && doc.metadata.name === 'checkout-config');
    expect(config.data.NATS_URL).toBeUndefined();
    const nats = documents.find((doc) => doc.kind === 'StatefulSet' && doc.metadata.name === 'nats');
    const [container] = nats.spec.template.spec.containers;
    expect(container.args).toEqual(['-js', '-c', '/etc/nats/nats-server.conf']);
    expect(container.envFrom).toEqual([{ secretRef: { name: 'nats-server-passwords' } }]);
    expect(nats.spec.template.spec.volumes).toContainEqual({ name: 'config', configMap: { name: 'nats-server-config' } });
    const service = documents.find((doc) => doc.kind === 'Service' && doc.metadata.name === 'nats');
    expect(service.spec.type).toBe('ClusterIP');
    const passwords = documents.find((doc) => doc.kind === 'Secret' && doc.metadata.name === 'nats-server-passwords');
    expect(Object.keys(passwords.stringData).sort()).toEqual(BUS_IDENTITIES.map(passwordVariable).sort());
    const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as { configMapGenerator: Array<{ name: string; files: string[] }> };
    expect(kustomization.configMapGenerator).toContainEqual(expect.objectContaining({ name: 'nats-server-config', files: ['nats-server.conf'] }));
  });

  it('ships the NATS config generated from the current subject registry (run npm run nats:config when this fails)', () => {
    expect(readFileSync(join(root, DEPLOY_NATS_CONFIG_PATH), 'utf8')).toBe(deployNatsServerConfig());
  });

  it('lists every manifest in the kustomization', () => {
    const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as { resources: string[] };
    const files = readdirSync(dir).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
  });
});

/** Whether an app's config requires `variable` (it is named when absent). */
function needs(name: ServiceName, variable: string): boolean {
  try {
    loadConfig(CONFIGS[name], {});
    return false;
  } catch (error) {
    return (error as Error).message.includes(variable);
  }
}
