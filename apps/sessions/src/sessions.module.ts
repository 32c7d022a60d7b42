import { Module } from '@nestjs/common';
import { RedisModule } from '@pp/platform';

@Module({
  imports: [
    RedisModule.forService(),
  ],
})
export class SessionsModule {}
