import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { CONFIG, REDIS } from '../app/tokens';
import { type DependencyCheckOptions, HealthService } from '../health/health.service';
import { InfrastructureUnreachableError } from '../nats/connect-nats';
import { serviceRedis } from './service-redis';

/** One ioredis connection per process (serviceRedis: with a deadline on each command), with a health check. */
@Module({})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** `servesWithout`: the service goes on, degraded, while Redis does not answer, so Redis leaves its readiness alone (DependencyCheckOptions). */
  static forService(options: DependencyCheckOptions = {}): DynamicModule {
    return {
      module: RedisModule,
      global: true,
      providers: [
        {
          provide: REDIS,
          inject: [CONFIG, HealthService],
          useFactory: async (config: { REDIS_URL: string }, health: HealthService) => {
            const redis = serviceRedis(config.REDIS_URL);
            try {
              await redis.connect();
            } catch (error) {
              redis.disconnect();
              throw new InfrastructureUnreachableError('Redis', config.REDIS_URL, error);
            }
            health.register('redis', () => redis.ping(), options);
            return redis;
          },
        },
      ],
      exports: [REDIS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
