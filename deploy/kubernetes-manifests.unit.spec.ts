import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUS_IDENTITIES, MIGRATE_IDENTITY, SERVICE_NAMES, type ServiceName } from '@pp/contracts';
import {
  ANSWER_DRAIN_MAX_MS,
  BaseConfig,
  DATABASE_SERVICES,
  deployNatsServerConfig,
  HTTP_DRAIN_MS,
  LIVENESS_PATH,
  OWNER_ROLE,
  passwordVariable,
  READINESS_PATH,
  serviceRole,
  WEB_APP_READINESS_PATH,
  WithDatabase,
} from '@pp/platform';
import { cnpgSchemaErrors } from './testing/cnpg-schema';
import { runWithFakeKubectl } from './testing/fake-kubectl';
import { k8sDir, type Manifest, renderKustomization, root, secretTemplates, validateKubernetes } from './testing/manifests';

/* Every overlay rendered by kustomize and checked against the Kubernetes API schemas, then read for the
   production shape docs/OPERATIONS.md promises. No cluster is needed. */

const WEB_APPS: ServiceName[] = ['gateway', 'checkout', 'dashboard'];
const AUTOSCALED: ServiceName[] = ['gateway', 'webhooks', 'ingest'];
const REDIS_USERS: ServiceName[] = ['gateway', 'sessions', 'webhooks', 'dashboard'];
const CUSTOM_KINDS = ['postgresql.cnpg.io/v1 Cluster', 'postgresql.cnpg.io/v1 ScheduledBackup'];

const OVERLAYS = ['dev', 'prod', 'prod-restore'] as const;
const rendered = Object.fromEntries(OVERLAYS.map((overlay) => [overlay, renderKustomization(join(k8sDir, 'overlays', overlay))])) as Record<(typeof OVERLAYS)[number], Manifest[]>;

const find = (documents: Manifest[], kind: string, name: string) => documents.find((doc) => doc.kind === kind && doc.metadata.name === name);
const workloads = (documents: Manifest[]) => documents.filter((doc) => ['Deployment', 'StatefulSet', 'Job'].includes(doc.kind));
const labelsMatch = (selector: Manifest, labels: Record<string, string>): boolean =>
  Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value) &&
  (selector.matchExpressions ?? []).every((expression: { key: string; operator: string; values: string[] }) => {
    if (expression.operator === 'In') return expression.values.includes(labels[expression.key]);
    throw new Error(`selector operator ${expression.operator} is not read by this spec`);
  });

/** A NetworkPolicy peer by name: `anywhere`, `internet(...)`, `<namespace>/<pod labels or *>`, or a pod label of this namespace. */
const peerName = (peer: Manifest): string =>
  peer.anywhere ? 'anywhere'
  : peer.ipBlock ? `internet(${peer.ipBlock.cidr} except private)`
  : peer.namespaceSelector ? `${peer.namespaceSelector.matchLabels['kubernetes.io/metadata.name']}/${Object.values(peer.podSelector?.matchLabels ?? {}).join() || '*'}`
  : Object.values(peer.podSelector.matchLabels).join();

/** The peers of a pod's NetworkPolicies in one direction (egress: `to`, ingress: `from`), each with its ports. */
function peersOf(documents: Manifest[], labels: Record<string, string>, direction: 'egress' | 'ingress'): string[] {
  const peers = new Set<string>();
  for (const policy of documents.filter((doc) => doc.kind === 'NetworkPolicy' && labelsMatch(doc.spec.podSelector, labels))) {
    for (const rule of policy.spec[direction] ?? []) {
      const ports = (rule.ports ?? [{}]).map((port: { port?: number | string }) => port.port ?? 'any').join(',');
      for (const peer of rule[direction === 'egress' ? 'to' : 'from'] ?? [{ anywhere: true }]) peers.add(`${peerName(peer)}:${ports}`);
    }
  }
  return [...peers].sort();
}
/** What a pod's NetworkPolicies let it reach: a name for each kind of peer (egress), per port. */
const egressOf = (documents: Manifest[], labels: Record<string, string>) => peersOf(documents, labels, 'egress');
/** Who a pod's NetworkPolicies let in: a name for each kind of peer (ingress), per port. */
const ingressOf = (documents: Manifest[], labels: Record<string, string>) => peersOf(documents, labels, 'ingress');

/** Every Secret a manifest names, with the key where it names one: env and envFrom, volumes, and CloudNativePG's fields. */
function secretReferences(node: unknown): Array<{ name: string; key?: string }> {
  if (Array.isArray(node)) return node.flatMap(secretReferences);
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node as Manifest).flatMap(([field, value]) => {
    if (['secretKeyRef', 'accessKeyId', 'secretAccessKey'].includes(field)) return [{ name: value.name, key: value.key }];
    if (['secretRef', 'passwordSecret'].includes(field) || (field === 'secret' && value.name)) return [{ name: value.name }];
    if (field === 'secretName') return [{ name: value }];
    return secretReferences(value);
  });
}

/** The NetworkPolicies with an ingress rule that names no peer, so lets in any pod of any namespace (and any address). */
const openToAnyone = (documents: Manifest[]): string[] =>
  documents.filter((doc) => doc.kind === 'NetworkPolicy' && (doc.spec.ingress ?? []).some((rule: Manifest) => !rule.from)).map((doc) => doc.metadata.name);

/** Connections a pod of each database service opens besides its pool: the gateway's key cache LISTENs on its own; the ledger's group commit and publisher have theirs. */
const CONNECTIONS_BESIDE_POOL: Record<(typeof DATABASE_SERVICES)[number], number> = { gateway: 1, ledger: 2, ingest: 0, webhooks: 0 };
/** DATABASE_POOL_SIZE when a Deployment does not set it. */
const DEFAULT_POOL_SIZE = new (WithDatabase(BaseConfig))().DATABASE_POOL_SIZE;
/** Postgres's superuser_reserved_connections (its default), and what the roles' limits leave besides: the owner's migrate Job (2) and read-model rebuild (2), CloudNativePG's own sessions, an operator's psql. */
const SUPERUSER_RESERVED = 3;
const OUTSIDE_SERVICE_ROLES = 25;

describe.each(OVERLAYS)('deploy/k8s/overlays/%s', (overlay) => {
  const documents = rendered[overlay];

  it('validates every rendered manifest against the Kubernetes API schemas, and the CloudNativePG objects against theirs', () => {
    const verdicts = validateKubernetes(documents);
    expect(verdicts).toHaveLength(documents.length);
    expect(verdicts.filter((verdict) => verdict.errors)).toEqual([]);
    const custom = verdicts.filter((verdict) => verdict.unknown).map((verdict) => `${verdict.apiVersion} ${verdict.kind}`);
    expect(custom.every((kind) => CUSTOM_KINDS.includes(kind))).toBe(true);
    for (const document of documents.filter((doc) => doc.apiVersion === 'postgresql.cnpg.io/v1')) expect(cnpgSchemaErrors(document)).toEqual([]);
  });

  it('commits no Secret: every Secret and key the pods read is in the documented template', () => {
    expect(documents.filter((doc) => doc.kind === 'Secret')).toEqual([]);
    const templates = new Map(secretTemplates().map((secret) => [secret.metadata.name as string, Object.keys(secret.stringData)]));
    const references = secretReferences(documents);
    expect(references.filter((reference) => reference.key).length).toBeGreaterThanOrEqual(SERVICE_NAMES.length);
    for (const { name, key } of references) expect({ name, key, templated: key ? templates.get(name)?.includes(key) : templates.has(name) }).toEqual({ name, key, templated: true });
  });

  it('gives no two workloads a Secret in common, so a node that runs one of them can read no other\'s credentials', () => {
    const readers = new Map<string, string[]>();
    for (const workload of workloads(documents)) {
      for (const name of new Set(secretReferences(workload).map((reference) => reference.name))) readers.set(name, [...(readers.get(name) ?? []), workload.metadata.name]);
    }
    expect(readers.size).toBeGreaterThanOrEqual(SERVICE_NAMES.length + 3);
    for (const [secret, names] of readers) expect({ secret, readers: names }).toEqual({ secret, readers: [expect.any(String)] });
    // Each service's own Secret is named after it.
    for (const name of SERVICE_NAMES) expect(readers.get(`${name}-secrets`)).toEqual([name]);
  });

  it('runs every container as non-root on a read-only root filesystem, with no capability and the runtime default seccomp profile', () => {
    expect(workloads(documents).length).toBeGreaterThanOrEqual(SERVICE_NAMES.length + 3);
    for (const workload of workloads(documents)) {
      const pod = workload.spec.template.spec;
      expect([workload.metadata.name, pod.securityContext]).toEqual([workload.metadata.name, expect.objectContaining({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } })]);
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
      expect(pod.automountServiceAccountToken).toBe(false);
      // No <SERVICE>_PORT=tcp://… variables: GATEWAY_PORT and the like are the web apps' own settings.
      expect([workload.metadata.name, pod.enableServiceLinks]).toEqual([workload.metadata.name, false]);
      for (const container of pod.containers) {
        expect([workload.metadata.name, container.securityContext]).toEqual([
          workload.metadata.name,
          expect.objectContaining({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } }),
        ]);
      }
    }
    expect(find(documents, 'Namespace', 'interac-checkout')?.metadata.labels['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it.each(SERVICE_NAMES)('gives %s probes, requests and limits, a PodDisruptionBudget, and an autoscaler only where it scales by load', (name) => {
    const deployment = find(documents, 'Deployment', name);
    const [container] = deployment?.spec.template.spec.containers ?? [];
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) expect(container[probe]).toBeDefined();
    if (!WEB_APPS.includes(name)) {
      // Each pod's own probes on its metrics port (not a bus request any replica may answer): only readiness looks at dependencies.
      const probes = Object.fromEntries(['startupProbe', 'readinessProbe', 'livenessProbe'].map((probe) => [probe, container[probe].httpGet]));
      expect(probes).toEqual({ startupProbe: { path: LIVENESS_PATH, port: 'metrics' }, readinessProbe: { path: READINESS_PATH, port: 'metrics' }, livenessProbe: { path: LIVENESS_PATH, port: 'metrics' } });
      expect(container.ports).toContainEqual({ name: 'metrics', containerPort: 9464 });
    } else {
      // Alive while it serves HTTP; ready by its own Postgres, Redis and NATS, never by another service's health.
      const probes = Object.fromEntries(['startupProbe', 'readinessProbe', 'livenessProbe'].map((probe) => [probe, container[probe].httpGet]));
      expect(probes).toEqual({ startupProbe: { path: '/healthz', port: 'http' }, readinessProbe: { path: WEB_APP_READINESS_PATH, port: 'http' }, livenessProbe: { path: '/healthz', port: 'http' } });
    }
    expect(Object.keys(container.resources.requests).sort()).toEqual(['cpu', 'memory']);
    expect(Object.keys(container.resources.limits).sort()).toEqual(['cpu', 'memory']);
    const budgets = documents.filter((doc) => doc.kind === 'PodDisruptionBudget' && labelsMatch(doc.spec.selector, deployment?.spec.template.metadata.labels));
    expect(budgets).toHaveLength(1);
    expect(budgets[0].spec.maxUnavailable).toBe(1);
    const autoscaler = documents.find((doc) => doc.kind === 'HorizontalPodAutoscaler' && doc.spec.scaleTargetRef.name === name);
    if (AUTOSCALED.includes(name)) {
      expect(autoscaler?.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
      expect(autoscaler?.spec.minReplicas).toBeLessThanOrEqual(autoscaler?.spec.maxReplicas);
      // The autoscaler owns the count; a replicas field would reset it on every apply.
      expect(deployment?.spec.replicas).toBeUndefined();
    } else {
      expect(autoscaler).toBeUndefined();
      expect(deployment?.spec.replicas).toBeGreaterThanOrEqual(1);
    }
  });

  it('lets only the ingress controller reach the web apps from outside, and the checkout app the gateway, behind a default deny of everything', () => {
    const deny = find(documents, 'NetworkPolicy', 'default-deny');
    expect(deny?.spec).toEqual({ podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
    // No pod believes X-Forwarded-For from just anyone: the web apps trust the pod network (TRUSTED_PROXIES).
    expect(openToAnyone(documents)).toEqual([]);
    const controller = find(documents, 'NetworkPolicy', 'web-ingress')?.spec.ingress[0].from[0].namespaceSelector.matchLabels['kubernetes.io/metadata.name'];
    for (const name of SERVICE_NAMES) {
      const expected = ['monitoring/prometheus:http,metrics'];
      if (WEB_APPS.includes(name)) expected.push(`${controller}/*:http`);
      if (name === 'gateway') expected.push('checkout:http');
      expect({ name, ingress: ingressOf(documents, { app: name }) }).toEqual({ name, ingress: expected.sort() });
    }
    // OPERATIONS.md names the namespace the policy expects, for the operator to change.
    expect(readFileSync(join(root, 'docs', 'OPERATIONS.md'), 'utf8')).toContain(`namespace \`${controller}\``);
    // A mail relay run beside the services (app: mail-pipeline) reaches the bus and nothing else.
    expect(egressOf(documents, { app: 'mail-pipeline' })).toEqual(['kube-system/kube-dns:53,53', 'nats:4222']);
  });

  it.each(SERVICE_NAMES)('lets %s reach only DNS, NATS and the Postgres and Redis it uses', (name) => {
    const expected = ['kube-system/kube-dns:53,53', 'nats:4222'];
    if (DATABASE_SERVICES.includes(name as (typeof DATABASE_SERVICES)[number])) expected.push('postgres:5432');
    if (REDIS_USERS.includes(name)) expected.push('redis:6379');
    // The two reaches beyond the data stores: the checkout page asks the gateway; webhooks go to merchants.
    if (name === 'checkout') expected.push('gateway:3000');
    if (name === 'webhooks') expected.push('internet(0.0.0.0/0 except private):any');
    expect(egressOf(documents, { app: name })).toEqual(expected.sort());
    // NATS takes its clients from the same pods it lets in.
    const natsClients = find(documents, 'NetworkPolicy', 'nats')?.spec.ingress[0].from[0].podSelector.matchExpressions[0].values;
    expect(natsClients).toContain(name);
    const internet = find(documents, 'NetworkPolicy', 'webhooks-to-internet')?.spec.egress[0].to[0].ipBlock.except;
    expect(internet).toEqual(expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']));
  });

  it('selects, with the first apply of a release as OPERATIONS.md gives it, the migrate Job, the NATS servers, every ConfigMap they read and every NetworkPolicy', () => {
    const selectors = [...readFileSync(join(root, 'docs', 'OPERATIONS.md'), 'utf8').matchAll(/-l '(app in \([a-z,-]+\))'/g)].map((match) => match[1]);
    expect(selectors.length).toBeGreaterThanOrEqual(2);
    expect(new Set(selectors).size).toBe(1);
    const apps = /\(([a-z,-]+)\)/.exec(selectors[0])![1].split(',');
    const selected = documents.filter((doc) => apps.includes(doc.metadata.labels?.app));
    expect(workloads(selected).map((workload) => `${workload.kind}/${workload.metadata.name}`).sort()).toEqual(['Job/migrate', 'StatefulSet/nats']);
    // Postgres, NATS and the migrate Job start behind the policies, never open to every pod of the cluster meanwhile.
    const policies = documents.filter((doc) => doc.kind === 'NetworkPolicy');
    expect(policies.length).toBeGreaterThan(0);
    expect(policies.filter((policy) => !selected.includes(policy)).map((policy) => policy.metadata.name)).toEqual([]);
    const configMaps = new Set(selected.filter((doc) => doc.kind === 'ConfigMap').map((doc) => doc.metadata.name));
    for (const workload of workloads(selected)) {
      const pod = workload.spec.template.spec;
      const read: string[] = [
        ...pod.containers.flatMap((container: Manifest) => [
          ...(container.envFrom ?? []).map((source: Manifest) => source.configMapRef?.name),
          ...(container.env ?? []).map((variable: Manifest) => variable.valueFrom?.configMapKeyRef?.name),
        ]),
        ...(pod.volumes ?? []).map((volume: Manifest) => volume.configMap?.name),
      ].filter(Boolean);
      for (const name of read) expect({ workload: workload.metadata.name, configMap: name, selected: configMaps.has(name) }).toEqual({ workload: workload.metadata.name, configMap: name, selected: true });
    }
  });

  it('runs the migrate Job as the owner role against the Postgres primary and as the migrate bus identity, and nothing else as either', () => {
    const job = find(documents, 'Job', 'migrate');
    const [container] = job?.spec.template.spec.containers ?? [];
    expect(container.command).toEqual(['node', 'dist/libs/platform/src/database/migrate-all.js']);
    expect(container.env).toContainEqual({ name: 'DATABASE_ROLE', valueFrom: { secretKeyRef: { name: 'postgres-owner', key: 'username' } } });
    expect(container.env).toContainEqual({ name: 'MIGRATION_DATABASE_URL', value: 'postgres://$(DATABASE_ROLE):$(DATABASE_PASSWORD)@postgres-rw:5432/pp' });
    expect(container.env).toContainEqual({ name: 'NATS_URL', valueFrom: { secretKeyRef: { name: `${MIGRATE_IDENTITY}-secrets`, key: 'NATS_URL' } } });
    expect(egressOf(documents, { app: 'migrate' })).toEqual(['kube-system/kube-dns:53,53', 'nats:4222', 'postgres:5432']);
    const ownerReaders = workloads(documents).filter((workload) => JSON.stringify(workload).includes('"postgres-owner"'));
    expect(ownerReaders.map((workload) => workload.metadata.name)).toEqual(['migrate']);
    const migrateIdentityReaders = workloads(documents).filter((workload) => JSON.stringify(workload).includes(`"name":"${MIGRATE_IDENTITY}-secrets"`));
    expect(migrateIdentityReaders.map((workload) => workload.metadata.name)).toEqual(['migrate']);
  });

  it('runs Postgres as a CloudNativePG Cluster owned by the owner role, with one login role per database service and nothing more', () => {
    const cluster = find(documents, 'Cluster', 'postgres');
    // A new cluster starts empty; the restore overlay's from the archive the prod cluster writes, into a new one.
    const bootstrap = overlay === 'prod-restore' ? cluster?.spec.bootstrap.recovery : cluster?.spec.bootstrap.initdb;
    expect(Object.keys(cluster?.spec.bootstrap)).toEqual([overlay === 'prod-restore' ? 'recovery' : 'initdb']);
    expect(bootstrap).toEqual(expect.objectContaining({ database: 'pp', owner: OWNER_ROLE, secret: { name: 'postgres-owner' } }));
    if (overlay === 'prod-restore') {
      const source = cluster?.spec.externalClusters.find((external: Manifest) => external.name === bootstrap.source).barmanObjectStore;
      const prodArchive = find(rendered.prod, 'Cluster', 'postgres')?.spec.backup.barmanObjectStore;
      expect(source.destinationPath).toBe(prodArchive.destinationPath);
      expect(source.serverName ?? 'postgres').toBe(prodArchive.serverName ?? 'postgres');
      expect(cluster?.spec.backup.barmanObjectStore.serverName).not.toBe(source.serverName ?? 'postgres');
    }
    expect(cluster?.spec.managed.roles.map((role: Manifest) => [role.name, role.passwordSecret.name])).toEqual(
      DATABASE_SERVICES.map((name) => [serviceRole(name), `postgres-${name}`]),
    );
    for (const role of cluster?.spec.managed.roles ?? []) {
      expect(role).toEqual(expect.objectContaining({ login: true, superuser: false, createdb: false, createrole: false, replication: false, bypassrls: false }));
    }
    if (overlay !== 'dev') {
      expect(cluster?.spec.instances).toBe(3);
      expect(cluster?.spec.backup.barmanObjectStore.destinationPath).toMatch(/^s3:\/\//);
      expect(find(documents, 'ScheduledBackup', 'postgres-nightly')?.spec.cluster).toEqual({ name: 'postgres' });
    }
  });

  it('runs NATS as a three-node JetStream cluster with the permissions generated from the subject registry', () => {
    const nats = find(documents, 'StatefulSet', 'nats');
    expect(nats?.spec.replicas).toBe(3);
    const [container] = nats?.spec.template.spec.containers ?? [];
    expect(container.args).toEqual(['-js', '-c', '/etc/nats/nats-cluster.conf']);
    expect(container.envFrom).toEqual([{ secretRef: { name: 'nats-server-passwords' } }]);
    const configName = nats?.spec.template.spec.volumes.find((volume: Manifest) => volume.name === 'config').configMap.name;
    const config = find(documents, 'ConfigMap', configName);
    expect(config?.data['nats-server.conf']).toBe(deployNatsServerConfig());
    const cluster = config?.data['nats-cluster.conf'] as string;
    expect(cluster).toContain('include ./nats-server.conf');
    // Each route a variable the StatefulSet sets, one per server, carrying the route password (NATS expands no variable inside a string).
    const block = /^cluster \{\n([\s\S]*?)^\}$/m.exec(cluster)?.[1] ?? '';
    const routeVariables = [.../routes: \[([^\]]*)\]/.exec(block)![1].matchAll(/\$(\w+)/g)].map((match) => match[1]);
    const env = new Map((container.env as { name: string; value?: string }[]).map((entry) => [entry.name, entry.value]));
    const routes = routeVariables.map((variable) => /^nats-route:\/\/route:\$\(NATS_ROUTE_PASSWORD\)@([a-z0-9-]+)\.([a-z-]+):6222$/.exec(env.get(variable) ?? '')?.slice(1));
    expect(routes).toEqual([0, 1, 2].map((ordinal) => [`nats-${ordinal}`, nats?.spec.serviceName]));
    // A route is let in only with that password (the NetworkPolicy is not the only guard), which the servers take from their Secret.
    expect(/authorization \{\s*user: route\s+password: \$NATS_ROUTE_PASSWORD\s/.test(block)).toBe(true);
    expect(secretTemplates().find((secret) => secret.metadata.name === 'nats-server-passwords')?.stringData).toHaveProperty('NATS_ROUTE_PASSWORD');
    expect(find(documents, 'Service', nats?.spec.serviceName)?.spec.clusterIP).toBe('None');
    expect(find(documents, 'PodDisruptionBudget', 'nats')?.spec.maxUnavailable).toBe(1);
    expect(find(documents, 'Service', 'nats')?.spec.type).toBe('ClusterIP');
  });

  it('runs Redis with an append-only file, without eviction, and with no access but PING without a password', () => {
    const redis = find(documents, 'StatefulSet', 'redis');
    const [container] = redis?.spec.template.spec.containers ?? [];
    expect(container.args).toEqual(expect.arrayContaining(['--appendonly', 'yes', '--maxmemory', '$(REDIS_MAXMEMORY)', '--maxmemory-policy', 'noeviction', '--aclfile', '/etc/redis/users.acl']));
    expect(redis?.spec.template.spec.volumes).toContainEqual({ name: 'acl', secret: { secretName: 'redis-acl' } });
    const acl = secretTemplates().find((secret) => secret.metadata.name === 'redis-acl')?.stringData['users.acl'] as string;
    expect(acl.split('\n')[0]).toBe('user default on nopass -@all +ping');
  });

  it('runs images the overlay names: dev tags, prod (and its restore) versions from a registry', () => {
    const images = workloads(documents)
      .filter((workload) => workload.metadata.name !== 'nats' && workload.metadata.name !== 'redis')
      .map((workload) => workload.spec.template.spec.containers[0].image as string);
    expect(images.length).toBe(SERVICE_NAMES.length + 1);
    for (const image of images) expect(image).toMatch(overlay !== 'dev' ? /^[a-z0-9.-]+\/interac-checkout\/[a-z]+:\d+\.\d+\.\d+$/ : /^interac-checkout\/[a-z]+:dev$/);
    // Postgres, NATS and Redis at a version more precise than a major: a new one is a change in review, not a pull.
    const infrastructure = [
      find(documents, 'StatefulSet', 'nats')?.spec.template.spec.containers[0].image,
      find(documents, 'StatefulSet', 'redis')?.spec.template.spec.containers[0].image,
      find(documents, 'Cluster', 'postgres')?.spec.imageName,
    ];
    for (const image of infrastructure) expect(image).toMatch(/:\d+\.\d+[\w.-]*$/);
  });

  it('gives Postgres room for every service pod at its most, during a rollout, within each service role\'s own limit', () => {
    const cluster = find(documents, 'Cluster', 'postgres');
    const maxConnections = Number(cluster?.spec.postgresql.parameters.max_connections);
    const limits = new Map<string, number>(cluster?.spec.managed.roles.map((role: Manifest) => [role.name, role.connectionLimit]));
    for (const name of DATABASE_SERVICES) {
      const deployment = find(documents, 'Deployment', name);
      const autoscaler = documents.find((doc) => doc.kind === 'HorizontalPodAutoscaler' && doc.spec.scaleTargetRef.name === name);
      // A rollout adds maxSurge pods, and the pod it replaces may still be stopping (a terminating pod is not counted).
      const pods = (autoscaler?.spec.maxReplicas ?? deployment?.spec.replicas) + deployment?.spec.strategy.rollingUpdate.maxSurge + 1;
      const poolSetting = deployment?.spec.template.spec.containers[0].env.find((variable: Manifest) => variable.name === 'DATABASE_POOL_SIZE');
      const perPod = Number(poolSetting?.value ?? DEFAULT_POOL_SIZE) + CONNECTIONS_BESIDE_POOL[name];
      const limit = limits.get(serviceRole(name));
      expect({ name, limit, needs: pods * perPod, fits: (limit ?? 0) >= pods * perPod }).toEqual({ name, limit, needs: pods * perPod, fits: true });
    }
    const roleLimits = [...limits.values()].reduce((sum, limit) => sum + limit, 0);
    expect(roleLimits + SUPERUSER_RESERVED + OUTSIDE_SERVICE_ROLES).toBeLessThanOrEqual(maxConnections);
    const operations = readFileSync(join(root, 'docs', 'OPERATIONS.md'), 'utf8').replace(/\s+/g, ' ');
    expect(operations).toContain(`\`max_connections\` ${maxConnections}`);
  });
});

describe('deploy/k8s/secrets.template.yaml', () => {
  it('is a set of valid Secrets holding placeholders only', () => {
    const templates = secretTemplates();
    expect(validateKubernetes(templates).filter((verdict) => verdict.errors || verdict.unknown)).toEqual([]);
    for (const secret of templates) {
      for (const [key, value] of Object.entries(secret.stringData as Record<string, string>)) {
        if (key === 'username') continue;
        expect([secret.metadata.name, key, value]).toEqual([secret.metadata.name, key, expect.stringContaining('CHANGE_ME')]);
      }
    }
  });
});

/* NATS probes, Redis memory per overlay, the web apps' stop, and the First install's secrets script. */

/** Bytes of a Kubernetes quantity (Ki, Mi, Gi) or a Redis size (kb, mb, gb: powers of 1024, as Redis reads them). */
function bytes(size: string): number {
  const match = /^(\d+)(Ki|Mi|Gi|kb|mb|gb)$/i.exec(size);
  if (!match) throw new Error(`size ${size} is not read by this spec`);
  return Number(match[1]) * 1024 ** (['k', 'm', 'g'].indexOf(match[2][0].toLowerCase()) + 1);
}

/** A container's args as the kubelet passes them: each $(VAR) of its env replaced; an unknown one is left as it is. */
const kubeletArgs = (container: Manifest): string[] => {
  const env = new Map<string, string>((container.env ?? []).filter((variable: Manifest) => 'value' in variable).map((variable: Manifest) => [variable.name, variable.value]));
  return container.args.map((arg: string) => arg.replace(/\$\(([A-Za-z_]\w*)\)/g, (whole, name: string) => env.get(name) ?? whole));
};

describe('NATS probes, Redis memory, the web apps\' stop, the First install secrets', () => {
  it.each(OVERLAYS)('%s: probes NATS as the nats-io chart does: the full /healthz only at start, JetStream enabled to live, the server up to be ready', (overlay) => {
    const nats = find(rendered[overlay], 'StatefulSet', 'nats');
    const [container] = nats?.spec.template.spec.containers ?? [];
    const configName = nats?.spec.template.spec.volumes.find((volume: Manifest) => volume.name === 'config').configMap.name;
    const monitor = container.ports.find((port: Manifest) => port.name === 'monitor').containerPort;
    expect(find(rendered[overlay], 'ConfigMap', configName)?.data['nats-server.conf']).toMatch(new RegExp(`^http: ${monitor}$`, 'm'));
    const probes = Object.fromEntries(['startupProbe', 'livenessProbe', 'readinessProbe'].map((probe) => [probe, container[probe].httpGet]));
    expect(probes).toEqual({
      startupProbe: { path: '/healthz', port: 'monitor' },
      livenessProbe: { path: '/healthz?js-enabled-only=true', port: 'monitor' },
      readinessProbe: { path: '/healthz?js-server-only=true', port: 'monitor' },
    });
    // A server that restarts catches up every stream before it is current: up to 15 minutes.
    expect(container.startupProbe.periodSeconds * container.startupProbe.failureThreshold).toBeGreaterThanOrEqual(15 * 60);
  });

  it.each(OVERLAYS)('%s: stops each NATS server in lame duck mode, its clients moved to the others, within its grace period', (overlay) => {
    const nats = find(rendered[overlay], 'StatefulSet', 'nats');
    const [container] = nats?.spec.template.spec.containers ?? [];
    const configName = nats?.spec.template.spec.volumes.find((volume: Manifest) => volume.name === 'config').configMap.name;
    const cluster = find(rendered[overlay], 'ConfigMap', configName)?.data['nats-cluster.conf'] as string;
    const pidFile = /^pid_file: "([^"]+)"$/m.exec(cluster)?.[1] as string;
    // The hook waits after signalling: the server takes the signal later, and a SIGTERM first would stop it at once.
    expect(container.lifecycle).toEqual({ preStop: { exec: { command: ['sh', '-c', `nats-server --signal ldm=${pidFile} && sleep 3`] } } });
    // The root filesystem is read-only: the server writes its pid file on a mounted volume.
    expect(container.volumeMounts.filter((mount: Manifest) => !mount.readOnly && pidFile.startsWith(`${mount.mountPath}/`))).toHaveLength(1);
    const seconds = (setting: string) => Number(new RegExp(`^${setting}: "(\\d+)s"$`, 'm').exec(cluster)?.[1]);
    const [duration, grace] = [seconds('lame_duck_duration'), seconds('lame_duck_grace_period')];
    // nats-server refuses a duration under 30 s, and a grace period not shorter than it.
    expect(duration).toBeGreaterThanOrEqual(30);
    expect(grace).toBeLessThan(duration);
    // The nats-io chart's budget: grace period + duration + 20 s for the server's own shutdown.
    expect(nats?.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(grace + duration + 20);
  });

  it.each(OVERLAYS)('%s: caps Redis memory well below its limit, and prod at 3gb in a 4 Gi request and limit', (overlay) => {
    const [container] = find(rendered[overlay], 'StatefulSet', 'redis')?.spec.template.spec.containers ?? [];
    const args = kubeletArgs(container);
    const maxmemory = args[args.indexOf('--maxmemory') + 1];
    const { requests, limits } = container.resources;
    expect([maxmemory, requests.memory, limits.memory]).toEqual(overlay === 'dev' ? ['384mb', '256Mi', '512Mi'] : ['3gb', '4Gi', '4Gi']);
    // A quarter of the limit left above the cap, for the append-only file's rewrite (a fork) and the buffers.
    expect(bytes(maxmemory)).toBeLessThanOrEqual(0.75 * bytes(limits.memory));
    // OPERATIONS.md gives each overlay's cap, and what fills Redis and what happens at the cap.
    const operations = readFileSync(join(root, 'docs', 'OPERATIONS.md'), 'utf8');
    const [, dev, prod] = /^\| Redis memory \|([^|]*)\|([^|]*)\|$/m.exec(operations) ?? [];
    expect(overlay === 'dev' ? dev : prod).toContain(`\`maxmemory\` ${maxmemory}`);
    const redis = /^- \*\*Redis\*\*:([\s\S]*?)\n(?=- |\n)/m.exec(operations)?.[1].replace(/\s+/g, ' ');
    for (const words of ['idempotency record for 24 h', 'BullMQ jobs', 'rate-limit counters', 'every POST 503', '`REDIS_MAXMEMORY`', '`overlays/prod/kustomization.yaml`']) expect(redis).toContain(words);
  });

  it.each(OVERLAYS)('%s: keeps the web apps serving 5 s after they are marked terminating, and their grace period covers that and the stop', (overlay) => {
    const preStopSeconds = 5;
    for (const name of WEB_APPS) {
      const pod = find(rendered[overlay], 'Deployment', name)?.spec.template.spec;
      expect({ name, lifecycle: pod.containers[0].lifecycle }).toEqual({ name, lifecycle: { preStop: { exec: { command: ['sleep', `${preStopSeconds}`] } } } });
      // Then SIGTERM: the HTTP drain (HTTP_DRAIN_MS), then the bus's answers under way (ANSWER_DRAIN_MAX_MS at most), the stores and telemetry close in what is left (10 s at least).
      expect(pod.terminationGracePeriodSeconds ?? 30).toBeGreaterThanOrEqual(preStopSeconds + HTTP_DRAIN_MS / 1000 + ANSWER_DRAIN_MAX_MS / 1000 + 10);
    }
    // The services' image has sleep: a Debian node image (coreutils), not a distroless one.
    const stages = [...readFileSync(join(root, 'deploy', 'Dockerfile'), 'utf8').matchAll(/^FROM (\S+)/gm)].map((match) => match[1]);
    expect(stages.at(-1)).toMatch(/^node:\d+(\.\d+\.\d+)?-(bookworm|trixie)(-slim)?$/);
    const operations = readFileSync(join(root, 'docs', 'OPERATIONS.md'), 'utf8').replace(/\s+/g, ' ');
    expect(operations).toContain(`keeps serving for ${preStopSeconds} s (\`preStop: sleep ${preStopSeconds}\`)`);
  });

  describe('deploy/k8s/scripts/make-secrets.sh (First install step 3), run against a fake kubectl', () => {
    const templates = new Map(secretTemplates().map((secret) => [secret.metadata.name as string, secret]));
    const run = runWithFakeKubectl('make-secrets.sh');
    const data = (name: string) => run.secrets.get(name)?.data ?? {};
    const password = (url: string) => decodeURIComponent(new URL(url).password);
    const operations = readFileSync(join(root, 'docs', 'OPERATIONS.md'), 'utf8');

    it('creates every Secret of deploy/k8s/secrets.template.yaml in the namespace, of its type, with its keys and nothing more, but the backup bucket\'s, which OPERATIONS has made by hand', () => {
      expect([run.status, run.stderr, run.otherNamespaces]).toEqual([0, '', []]);
      const shape = (entries: Iterable<[string, { type: string; keys: string[] }]>) => Object.fromEntries([...entries].map(([name, { type, keys }]) => [name, { type, keys: [...keys].sort() }]));
      const expected = [...templates].filter(([name]) => name !== 'postgres-backup');
      expect(shape([...run.secrets].map(([name, secret]) => [name, { type: secret.type, keys: Object.keys(secret.data) }]))).toEqual(
        shape(expected.map(([name, template]) => [name, { type: template.type, keys: Object.keys(template.stringData) }])),
      );
      expect(operations).toContain('   bash deploy/k8s/scripts/make-secrets.sh\n');
      const backup = /^ {3}kubectl -n interac-checkout create secret generic postgres-backup (.*)$/m.exec(operations)?.[1].split(' ');
      expect(backup?.map((word) => /^--from-literal=(\w+)=/.exec(word)?.[1]).sort()).toEqual(Object.keys(templates.get('postgres-backup')!.stringData).sort());
    });

    it('stops at the first random value that openssl does not give, leaving no Secret with a short one', () => {
      const commands = mkdtempSync(join(tmpdir(), 'no-openssl-'));
      try {
        writeFileSync(join(commands, 'openssl'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
        const failed = runWithFakeKubectl('make-secrets.sh', {}, commands);
        expect(failed.status).not.toBe(0);
        expect([...failed.secrets.keys()]).toEqual([]);
      } finally {
        rmSync(commands, { recursive: true, force: true });
      }
    });

    it('gives each bus identity a fresh password, the same in the servers\' Secret and in its own workload\'s NATS_URL', () => {
      const server = data('nats-server-passwords');
      const identities = [...BUS_IDENTITIES];
      for (const identity of identities) {
        const url = data(`${identity}-secrets`).NATS_URL;
        expect(url).toMatch(new RegExp(`^nats://${identity}:[^@]+@nats:4222$`));
        expect(password(url)).toBe(server[passwordVariable(identity)]);
      }
      const passwords = Object.values(server);
      expect(new Set(passwords).size).toBe(identities.length + 1);
      for (const value of passwords) expect(value).toMatch(/^[a-z0-9]{32,}$/);
    });

    it('gives each Redis user a fresh password of its own, the same in its REDIS_URL and its ACL line, and the template\'s ACL lines', () => {
      const acl = data('redis-acl')['users.acl'];
      expect(acl.replace(/>\S+ /g, '>CHANGE_ME ').split('\n')).toEqual(templates.get('redis-acl')!.stringData['users.acl'].trimEnd().split('\n'));
      const aclPasswords = Object.fromEntries([...acl.matchAll(/^user ([a-z]+) on >(\S+) /gm)].map((match) => [match[1], match[2]]));
      expect(Object.keys(aclPasswords).sort()).toEqual([...REDIS_USERS].sort());
      for (const user of REDIS_USERS) {
        const url = data(`${user}-secrets`).REDIS_URL;
        expect(url).toMatch(new RegExp(`^redis://${user}:[^@]+@redis:6379$`));
        expect(password(url)).toBe(aclPasswords[user]);
      }
      expect(new Set(Object.values(aclPasswords)).size).toBe(REDIS_USERS.length);
      for (const value of Object.values(aclPasswords)) expect(value).toMatch(/^[a-f0-9]{48}$/);
    });

    it('gives each Postgres role its template\'s user name and a fresh password', () => {
      const roles = [...run.secrets].filter(([name]) => name.startsWith('postgres-') && name !== 'postgres-backup');
      for (const [name, secret] of roles) expect(secret.data.username).toBe(templates.get(name)!.stringData.username);
      expect(new Set(roles.map(([, secret]) => secret.data.password)).size).toBe(roles.length);
      for (const [, secret] of roles) expect(secret.data.password).toMatch(/^[a-f0-9]{48}$/);
    });
  });

  describe('deploy/k8s/scripts/split-shared-secrets.sh (the release that gives each workload its own Secret), run against a fake kubectl', () => {
    const script = 'split-shared-secrets.sh';
    const fresh = () => randomBytes(24).toString('hex');
    /** The two shared Secrets of the release before, as step 3 of that release made them. */
    const shared = () => ({
      'checkout-service-secrets': {
        ADMIN_TOKEN: fresh(), INGEST_TOKEN: fresh(), SERVER_SECRET: fresh(), WEBHOOK_SECRET_KEYS: `k1:${randomBytes(32).toString('base64')}`,
        ...Object.fromEntries(REDIS_USERS.map((user) => [`${user.toUpperCase()}_REDIS_URL`, `redis://${user}:${fresh()}@redis:6379`])),
      },
      'nats-identities': Object.fromEntries(BUS_IDENTITIES.map((identity) => [identity, `nats://${identity}:p${fresh()}@nats:4222`])),
    });
    const workloadSecrets = [...secretTemplates()].filter((secret) => String(secret.metadata.name).endsWith('-secrets'));

    it('copies every value into the Secret of the one workload that reads it, keeps the old Secrets, and rotates nothing', () => {
      const before = shared();
      const run = runWithFakeKubectl(script, before);
      expect([run.status, run.stderr, run.otherNamespaces]).toEqual([0, '', []]);
      expect(run.stdout).toContain('kubectl -n interac-checkout delete secret checkout-service-secrets nats-identities');
      expect(readFileSync(join(root, 'docs', 'OPERATIONS.md'), 'utf8')).toContain(`\`bash deploy/k8s/scripts/${script}\``);
      const old = before['checkout-service-secrets'] as Record<string, string>;
      for (const template of workloadSecrets) {
        const workload = String(template.metadata.name).replace(/-secrets$/, '');
        const expected: Record<string, string> = { NATS_URL: before['nats-identities'][workload] };
        for (const key of Object.keys(template.stringData)) {
          if (key === 'REDIS_URL') expected.REDIS_URL = old[`${workload.toUpperCase()}_REDIS_URL`];
          else if (key !== 'NATS_URL') expected[key] = old[key];
        }
        expect([workload, run.secrets.get(template.metadata.name)?.data]).toEqual([workload, expected]);
      }
      expect(run.secrets.get('checkout-service-secrets')?.data).toEqual(before['checkout-service-secrets']);
      expect(run.secrets.get('nats-identities')?.data).toEqual(before['nats-identities']);
    });

    it('stops at a value it cannot read, naming it, creates nothing after it, and finishes when run again', () => {
      const before = shared();
      const { WEBHOOK_SECRET_KEYS: missing, ...rest } = before['checkout-service-secrets'];
      const stopped = runWithFakeKubectl(script, { ...before, 'checkout-service-secrets': rest });
      expect(stopped.status).not.toBe(0);
      expect(stopped.stderr).toContain('checkout-service-secrets has no WEBHOOK_SECRET_KEYS: webhooks-secrets not created');
      expect([...stopped.secrets.keys()].sort()).toEqual(['checkout-service-secrets', 'gateway-secrets', 'nats-identities', 'sessions-secrets']);
      const again = runWithFakeKubectl(script, { ...Object.fromEntries([...stopped.secrets].map(([name, secret]) => [name, secret.data])), 'checkout-service-secrets': { ...rest, WEBHOOK_SECRET_KEYS: missing } });
      expect([again.status, again.stderr]).toEqual([0, '']);
      expect(again.stdout).toContain('gateway-secrets exists: kept');
      expect(again.secrets.get('webhooks-secrets')?.data.WEBHOOK_SECRET_KEYS).toBe(missing);
      expect(again.secrets.get('gateway-secrets')?.data).toEqual(stopped.secrets.get('gateway-secrets')?.data);
      expect(workloadSecrets.every((template) => again.secrets.has(template.metadata.name))).toBe(true);
    });
  });
});
