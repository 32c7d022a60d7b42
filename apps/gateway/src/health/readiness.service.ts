import { Inject, Injectable } from '@nestjs/common';
import { type DependencyHealth, healthSubject, SERVICE_NAMES, type ServiceName } from '@pp/contracts';
import { BusClient, NATS_CONNECTION, REDIS, timedCheck } from '@pp/platform';
import type Redis from 'ioredis';
import type { NatsConnection } from 'nats';
import { DataSource } from 'typeorm';

/** How long one readiness probe may take before its component is reported down. */
export const READINESS_DEADLINE_MS = 1000;

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checked_at: string;
  infrastructure: Record<'postgres' | 'redis' | 'nats', DependencyHealth>;
  services: Record<Exclude<ServiceName, 'gateway'>, DependencyHealth & { instance?: string }>;
}

/** Probes infrastructure and every service over NATS in parallel, each under its own deadline. */
@Injectable()
export class ReadinessService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly bus: BusClient,
  ) {}

  async check(): Promise<ReadinessReport> {
    const others = SERVICE_NAMES.filter((name): name is Exclude<ServiceName, 'gateway'> => name !== 'gateway');
    const [postgres, redis, nats, ...serviceResults] = await Promise.all([
      timedCheck(() => this.dataSource.query('SELECT 1'), READINESS_DEADLINE_MS),
      timedCheck(() => this.redis.ping(), READINESS_DEADLINE_MS),
      timedCheck(() => this.nc.flush(), READINESS_DEADLINE_MS),
      ...others.map((service) => this.probe(service)),
    ]);
    const services = Object.fromEntries(others.map((name, i) => [name, serviceResults[i]])) as ReadinessReport['services'];
    const all = [postgres, redis, nats, ...serviceResults];
    return {
      status: all.every((result) => result.status === 'up') ? 'ready' : 'not_ready',
      checked_at: new Date().toISOString(),
      infrastructure: { postgres, redis, nats },
      services,
    };
  }

  private async probe(service: ServiceName): Promise<DependencyHealth & { instance?: string }> {
    let instance: string | undefined;
    const result = await timedCheck(async () => {
      const reply = await this.bus.request(healthSubject(service), {}, { timeoutMs: READINESS_DEADLINE_MS });
      instance = reply.instance;
      if (reply.status !== 'up') {
        const down = Object.entries(reply.dependencies).filter(([, dep]) => dep.status !== 'up').map(([name]) => name);
        throw new Error(`dependencies down: ${down.join(', ')}`);
      }
    }, READINESS_DEADLINE_MS + 100);
    return instance ? { ...result, instance } : result;
  }
}
