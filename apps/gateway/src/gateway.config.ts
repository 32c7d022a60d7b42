import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { BaseConfig, WithDatabase, WithRedis, toInt } from '@pp/platform';

export class GatewayConfig extends WithRedis(WithDatabase(BaseConfig)) {
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a port number' })
  @Min(0)
  @Max(65535)
  GATEWAY_PORT = 3000;
}
