import { Inject, Injectable } from '@nestjs/common';
import { type DependencyHealth, healthSubject, SERVICE_NAMES, type ServiceName } from '@pp/contracts';
import { BusClient, JsonLogger, NATS_CONNECTION, RecentAnswer, REDIS, timedCheck } from '@pp/platform';
import type Redis from 'ioredis';
import type { NatsConnection } from 'nats';
import { DataSource } from 'typeorm';
import { publicHealth } from './public-health.policy';

/** How long one readiness probe may take before its component is reported down. */
export const READINESS_DEADLINE_MS = 1000;
/**
 * A report this recent (counted from when its check ended) answers again, and
 * requests during a check share it: /readyz is public, and each check costs
 * Postgres, Redis, NATS and every service a round trip.
 */
export const READINESS_REUSE_MS = 1000;

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checked_at: string;
  infrastructure: Record<'postgres' | 'redis' | 'nats', DependencyHealth>;
  services: Record<Exclude<ServiceName, 'gateway'>, DependencyHealth>;
}

/**
 * Probes infrastructure and every service over NATS in parallel, each under
 * its own deadline. /readyz is public, so the report says only up or down,
 * latency and a generic reason per component; what failed in detail (driver
 * errors naming hosts, instance ids) goes to the gateway's log.
 */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly bus: BusClient,
    private readonly logger: JsonLogger,
  ) {}

  private readonly latest = new RecentAnswer(() => this.checkAll(), READINESS_REUSE_MS);

  check(now = Date.now()): Promise<ReadinessReport> {
    return this.latest.get(now);
  }

  private async checkAll(): Promise<ReadinessReport> {
    const others = SERVICE_NAMES.filter((name): name is Exclude<ServiceName, 'gateway'> => name !== 'gateway');
    const [postgres, redis, nats, ...serviceResults] = await Promise.all([
      timedCheck(() => this.dataSource.query('SELECT 1'), READINESS_DEADLINE_MS),
      timedCheck(() => this.redis.ping(), READINESS_DEADLINE_MS),
      timedCheck(() => this.nc.flush(), READINESS_DEADLINE_MS),
      ...others.map((service) => this.probe(service)),
    ]);
    const components: Record<string, DependencyHealth> = { postgres, redis, nats, ...Object.fromEntries(others.map((name, i) => [name, serviceResults[i]])) };
    for (const [component, health] of Object.entries(components)) {
      if (health.status !== 'up') this.logger.warn('readiness: component down', { component, error: health.error });
    }
    const shown = (name: string) => publicHealth(components[name]);
    return {
      status: Object.values(components).every((result) => result.status === 'up') ? 'ready' : 'not_ready',
      checked_at: new Date().toISOString(),
      infrastructure: { postgres: shown('postgres'), redis: shown('redis'), nats: shown('nats') },
      services: Object.fromEntries(others.map((name) => [name, shown(name)])) as ReadinessReport['services'],
    };
  }

  private probe(service: ServiceName): Promise<DependencyHealth> {
    return timedCheck(async () => {
      const reply = await this.bus.request(healthSubject(service), {}, { timeoutMs: READINESS_DEADLINE_MS });
      if (reply.status !== 'up') {
        const down = Object.entries(reply.dependencies).filter(([, dep]) => dep.status !== 'up').map(([name]) => name);
        throw new Error(`dependencies down: ${down.join(', ')}`);
      }
    }, READINESS_DEADLINE_MS + 100);
  }
}
