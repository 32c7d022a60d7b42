import { Module } from '@nestjs/common';
import { DatabaseModule, RedisModule } from '@pp/platform';
import { GatewayMigrations } from './database/migrations';
import { HealthModule } from './health/health.module';

@Module({
  imports: [
    DatabaseModule.forService({ schema: 'gateway', migrations: GatewayMigrations }),
    RedisModule.forService(),
    HealthModule,
  ],
})
export class GatewayModule {}
