import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { BaseConfig, WithCheckoutUrls, WithHttpTimeouts, WithTrustedProxies, toInt } from '@pp/platform/config';

const HTTP_URL = /^https?:\/\/[^\s/]+(:\d+)?(\/[^\s]*)?$/;

export class CheckoutConfig extends WithHttpTimeouts(WithTrustedProxies(WithCheckoutUrls(BaseConfig))) {
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a port number' })
  @Min(0)
  @Max(65535)
  CHECKOUT_PORT = 3001;

  /** Public base of the client script, served by this app at /v1/checkout.js (PRODUCT-RULES §4.8 {sdk_url}). */
  @Matches(HTTP_URL, { message: 'must be an http(s) URL, e.g. http://localhost:3001' })
  SDK_URL!: string;

  /**
   * Where this app reaches the gateway's REST API (server to server): the
   * embedded frame opens a session by client secret through the gateway's
   * publishable-key route, which authenticates and rate-limits the key.
   */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'must be an http(s) URL, e.g. http://127.0.0.1:3000' })
  GATEWAY_URL = 'http://127.0.0.1:3000';

  /**
   * Payer routes (pages, the embedded frame): requests per second per client
   * address (IPv6 per /64), per replica. The status polls have their own budget, below.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of requests per second' })
  @Min(1)
  @Max(100_000)
  CHECKOUT_RATE_LIMIT_PER_ADDRESS_PER_SECOND = 20;

  /**
   * Status polls per second per client address (IPv6 per /64), per replica, apart from the pages' budget:
   * an open page polls once a second, so this many payers behind one shared address (a carrier-grade NAT,
   * an office) follow their payments at full speed, and more share it as their pages back off on 429.
   * Polls never spend the pages' budget, so they cannot lock those payers out of loading a page.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of requests per second' })
  @Min(1)
  @Max(100_000)
  CHECKOUT_STATUS_POLLS_PER_ADDRESS_PER_SECOND = 100;
}
