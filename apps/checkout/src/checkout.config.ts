import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { BaseConfig, WithCheckoutUrls, toInt } from '@pp/platform';

export class CheckoutConfig extends WithCheckoutUrls(BaseConfig) {
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a port number' })
  @Min(0)
  @Max(65535)
  CHECKOUT_PORT = 3001;
}
