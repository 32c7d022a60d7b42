import { type DynamicModule, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { CONFIG, REDIS } from '../app/tokens';
import { HealthService } from '../health/health.service';
import { InfrastructureUnreachableError } from '../nats/connect-nats';
import { writeOncePerTurn } from './write-once-per-turn';

/** One ioredis connection per process (BullMQ makes its own from the same URL), with a health check. */
@Module({})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  static forService(): DynamicModule {
    return {
      module: RedisModule,
      global: true,
      providers: [
        {
          provide: REDIS,
          inject: [CONFIG, HealthService],
          useFactory: async (config: { REDIS_URL: string }, health: HealthService) => {
            const redis = new Redis(config.REDIS_URL, {
              lazyConnect: true,
              maxRetriesPerRequest: 2,
              connectTimeout: 3000,
            });
            // Commands issued in the same turn (the rate limit and idempotency calls of concurrent requests) share one write and one read.
            writeOncePerTurn(redis);
            try {
              await redis.connect();
            } catch (error) {
              redis.disconnect();
              throw new InfrastructureUnreachableError('Redis', config.REDIS_URL, error);
            }
            health.register('redis', () => redis.ping());
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
