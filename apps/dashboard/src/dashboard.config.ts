import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { BaseConfig, toInt } from '@pp/platform';

export class DashboardConfig extends BaseConfig {
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a port number' })
  @Min(0)
  @Max(65535)
  DASHBOARD_PORT = 3002;
}
