import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { ServiceName } from '@pp/contracts';
import {
  BusClient,
  connectNats,
  isDatabaseService,
  isRedisService,
  JetStreamProvisioningConfig,
  layoutSettingsOf,
  loadConfig,
  provisionJetStream,
  type RedisService,
  redisUserRules,
} from '@pp/platform';
import Redis from 'ioredis';
import type { NatsConnection } from 'nats';
import type { Pool } from 'pg';
import { testInfra } from './infra';
import { REPO_ROOT, ServiceProcess } from './service-process';
import { testPool } from './test-pool';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestStackOptions {
  /** Which services to run; gateway, checkout and dashboard get ephemeral HTTP ports. */
  services: readonly ServiceName[];
  /** Extra or overriding environment for every service. */
  env?: Record<string, string>;
  label?: string;
  /** How long each service may take to report ready (default 45 s, ServiceProcess); the bench allows more on a busy machine. */
  startTimeoutMs?: number;
}

/** The HTTP apps and the variable that sets each one's port. */
const PORT_VARIABLES: Partial<Record<ServiceName, string>> = {
  gateway: 'GATEWAY_PORT',
  checkout: 'CHECKOUT_PORT',
  dashboard: 'DASHBOARD_PORT',
};

/**
 * A private copy of the system for one spec file: a fresh database, its own
 * namespace for NATS subjects and streams, BullMQ queues and Redis keys, and
 * the chosen services as real processes. Tests talk to it over HTTP or NATS.
 * As in production, each service's schema is migrated by the owner role
 * before the service first starts, and the service logs in as its own role.
 */
export class TestStack {
  readonly namespace: string;
  readonly env: Record<string, string>;
  private readonly processes_ = new Map<ServiceName, ServiceProcess>();
  private busConnection?: NatsConnection;
  private sqlPool?: Pool;
  /** The namespace's JetStream streams and object stores, laid out once, before the first service starts. */
  private jetStream?: Promise<unknown>;
  /** The Redis ACL users made for this stack's services, by name, with their passwords. */
  private readonly redisUsers = new Map<string, string>();

  private constructor(
    readonly database: TestDatabase,
    namespace: string,
    env: Record<string, string>,
    private readonly startTimeoutMs?: number,
  ) {
    this.namespace = namespace;
    this.env = env;
  }

  static async start(options: TestStackOptions): Promise<TestStack> {
    const label = options.label ?? 'stack';
    const database = await createTestDatabase(label);
    const namespace = `t${randomBytes(5).toString('hex')}`;
    const env: Record<string, string> = {
      NATS_URL: testInfra.natsUrl,
      REDIS_URL: testInfra.redisUrl,
      PP_NAMESPACE: namespace,
      LOG_LEVEL: 'info',
      ADMIN_TOKEN: `admin-${randomBytes(16).toString('hex')}`,
      INGEST_TOKEN: `ingest-${randomBytes(16).toString('hex')}`,
      SERVER_SECRET: randomBytes(32).toString('hex'),
      WEBHOOK_SECRET_KEYS: `k${randomBytes(3).toString('hex')}:${randomBytes(32).toString('base64')}`,
      CHECKOUT_URL_BASE: 'http://localhost:3001',
      SDK_URL: 'http://localhost:3001',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      GATEWAY_PORT: '0',
      CHECKOUT_PORT: '0',
      DASHBOARD_PORT: '0',
      METRICS_PORT: '0',
      // JetStream sets a bounded stream's room aside on the volume: a test's mail needs little, and many stacks share one server.
      INGEST_STREAM_MAX_BYTES: String(64 * 1024 * 1024),
      INGEST_BUCKET_MAX_BYTES: String(64 * 1024 * 1024),
      ...options.env,
    };
    const stack = new TestStack(database, namespace, env, options.startTimeoutMs);
    try {
      await Promise.all(options.services.map((service) => stack.startService(service)));
    } catch (error) {
      await stack.stop();
      throw error;
    }
    return stack;
  }

  /** Base URL of an HTTP app, e.g. `stack.url('gateway')` → http://127.0.0.1:41234. */
  url(service: ServiceName): string {
    const port = this.processes_.get(service)?.port;
    if (!port) throw new Error(`${service} is not running with an HTTP port in this stack`);
    return `http://127.0.0.1:${port}`;
  }

  /** Where a service answers Prometheus: GET /metrics on a web app's port, or on its METRICS_PORT. */
  metricsUrl(service: ServiceName): string {
    const proc = this.process(service);
    const port = proc.port ?? proc.metricsPort;
    if (!port) throw new Error(`${service} reported no HTTP or metrics port`);
    return `http://127.0.0.1:${port}/metrics`;
  }

  processes(): ServiceProcess[] {
    return [...this.processes_.values()];
  }

  process(service: ServiceName): ServiceProcess {
    const found = this.processes_.get(service);
    if (!found) throw new Error(`${service} was never started in this stack`);
    return found;
  }

  /** Starts (or restarts) one service, keeping its HTTP port across restarts. */
  async startService(service: ServiceName): Promise<void> {
    const previous = this.processes_.get(service);
    const portVariable = PORT_VARIABLES[service];
    const env = await this.envFor(service);
    if (portVariable && previous?.port) env[portVariable] = String(previous.port);
    const proc = new ServiceProcess(service, env, join(REPO_ROOT, 'tmp', 'test-logs', this.namespace));
    this.processes_.set(service, proc);
    await proc.start(this.startTimeoutMs);
  }

  /**
   * The environment one service runs with (also for tests that start an extra
   * replica themselves): the stack's, with the service's own bus identity
   * (unless the test named one NATS_URL for all), plus, for a service with a
   * schema, that schema migrated (once) and DATABASE_URL with the service's
   * own role. The others get no database at all.
   */
  async envFor(service: ServiceName): Promise<Record<string, string>> {
    // A failed lay-out is tried again by the next service start, not kept as the stack's answer.
    await (this.jetStream ??= this.provisionJetStream().catch((error: unknown) => {
      this.jetStream = undefined;
      throw error;
    }));
    const natsUrl = this.env.NATS_URL === testInfra.natsUrl ? testInfra.natsUrlOf(service) : this.env.NATS_URL;
    const { REDIS_URL: redisUrl, ...shared } = this.env;
    const env: Record<string, string> = { ...shared, NATS_URL: natsUrl };
    if (isRedisService(service)) env.REDIS_URL = await this.redisUrlOf(service, redisUrl);
    if (!isDatabaseService(service)) return env;
    await this.database.migrate(service);
    return { ...env, DATABASE_URL: this.database.serviceUrl(service) };
  }

  /**
   * `url` logged in as the service's own ACL user, as in compose and
   * Kubernetes: made on the test Redis with the deployment's rules for this
   * namespace's keys, so a command or key a service is not allowed fails the
   * tests. A URL that names a user already is the test's choice.
   */
  private async redisUrlOf(service: RedisService, url: string): Promise<string> {
    if (new URL(url).username) return url;
    const user = `${this.namespace}-${service}`;
    let password = this.redisUsers.get(user);
    if (!password) {
      password = randomBytes(16).toString('hex');
      await withAdminRedis((redis) => redis.call('ACL', 'SETUSER', user, 'reset', 'on', `>${password}`, ...redisUserRules(service, this.namespace)));
      this.redisUsers.set(user, password);
    }
    const withUser = new URL(url);
    withUser.username = user;
    withUser.password = password;
    return withUser.href;
  }

  /**
   * What the migrate step does in a deployment: no service may create a stream. As the harness's
   * identity, with the stack's settings (a test may set JETSTREAM_REPLICAS or the byte limits).
   */
  private async provisionJetStream(): Promise<void> {
    const nc = await connectNats(this.env.NATS_URL, 'test-stack-migrate');
    try {
      await provisionJetStream(nc, layoutSettingsOf(loadConfig(JetStreamProvisioningConfig, this.env)));
    } finally {
      await nc.close();
    }
  }

  async stopService(service: ServiceName, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    await this.processes_.get(service)?.stop(signal);
  }

  /** A bus client in this stack's namespace under the harness's identity (test-client), for tests that call services over NATS (closed by stop()). */
  async bus(timeoutMs = 10_000): Promise<BusClient> {
    this.busConnection ??= await connectNats(this.env.NATS_URL, 'test-stack');
    return new BusClient(this.busConnection, this.namespace, timeoutMs);
  }

  /** A superuser's pool on this stack's database, for a test's set-up and assertions on tables (testPool; closed by stop()). */
  async sql(): Promise<Pool> {
    this.sqlPool ??= testPool(this.database.url);
    return this.sqlPool;
  }

  async stop(): Promise<void> {
    await Promise.all([this.sqlPool?.end(), this.busConnection?.close()]);
    await Promise.all([...this.processes_.values()].map((proc) => proc.stop()));
    // Removing the Redis keys is tidying only: a Redis a test has stopped must not fail the stop.
    await Promise.all([
      this.database.drop(),
      this.deleteStreams(),
      this.deleteRedisKeys().catch(() => undefined),
      this.deleteRedisUsers().catch(() => undefined),
    ]);
  }

  /**
   * Redis keys outlive the services too (24-hour idempotency records, delayed
   * jobs): remove this namespace's, so the shared Redis does not grow with
   * every test and bench run.
   */
  private async deleteRedisKeys(): Promise<void> {
    const redis = new Redis(this.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      const keys = redis.scanStream({ match: `${this.namespace}:*`, count: 1000 });
      for await (const batch of keys as AsyncIterable<string[]>) if (batch.length > 0) await redis.unlink(...batch);
    } finally {
      redis.disconnect();
    }
  }

  private async deleteRedisUsers(): Promise<void> {
    if (this.redisUsers.size > 0) await withAdminRedis((redis) => redis.call('ACL', 'DELUSER', ...this.redisUsers.keys()));
  }

  /** Streams (and object stores, which are streams) outlive the services: remove this namespace's from the shared NATS. */
  private async deleteStreams(): Promise<void> {
    const nc = await connectNats(this.env.NATS_URL, 'test-stack');
    try {
      const jsm = await nc.jetstreamManager();
      const names = (await jsm.streams.names().next()).filter((name) => name.includes(`${this.namespace}_`));
      await Promise.all(names.map((name) => jsm.streams.delete(name).catch(() => false)));
    } finally {
      await nc.close();
    }
  }
}

/** Runs `work` on the test Redis as its administrator (testInfra.redisUrl). */
export async function withAdminRedis<T>(work: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(testInfra.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    return await work(redis);
  } finally {
    redis.disconnect();
  }
}
