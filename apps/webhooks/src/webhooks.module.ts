import { Module } from '@nestjs/common';
import { DatabaseModule, RedisModule } from '@pp/platform';
import { WebhooksMigrations } from './database/migrations';

@Module({
  imports: [
    DatabaseModule.forService({ schema: 'webhooks', migrations: WebhooksMigrations }),
    RedisModule.forService(),
  ],
})
export class WebhooksModule {}
