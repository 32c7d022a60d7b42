import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { BaseConfig, DevelopmentOnly, toBool, toInt, WithHttpTimeouts, WithRedis, WithTrustedProxies } from '@pp/platform/config';

/** TRUSTED_PROXIES: the sign-in limit per client address must count the client behind an ingress, not the ingress. */
export class DashboardConfig extends WithHttpTimeouts(WithTrustedProxies(WithRedis(BaseConfig))) {
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a port number' })
  @Min(0)
  @Max(65535)
  DASHBOARD_PORT = 3002;

  /** Sign-in sessions end after this much inactivity (docs/ARCHITECTURE.md "Dashboard"). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of seconds' })
  @Min(60)
  @Max(86_400)
  DASHBOARD_IDLE_TIMEOUT_SECONDS = 1800;

  /**
   * A session acts on the role it holds for at most this long before the gateway is asked again: the bound on a
   * changed role or a removed user reaching a session the team change could not end (docs/ARCHITECTURE.md "Dashboard").
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number of seconds' })
  @Min(1)
  @Max(3600)
  DASHBOARD_PRINCIPAL_RECHECK_SECONDS = 30;

  /** Sign-in attempts allowed per client address in 15 minutes (per account: 10). */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number' })
  @Min(1)
  DASHBOARD_LOGINS_PER_ADDRESS = 30;

  /**
   * Requests per second one signed-in user may make, across every replica and every session of theirs; sign-out is
   * never refused (docs/ARCHITECTURE.md "Dashboard").
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'must be a whole number' })
  @Min(1)
  DASHBOARD_REQUESTS_PER_USER_PER_SECOND = 50;

  /**
   * The session cookie is Secure (and __Host-), with HSTS, unless this is false, which only dev and test set (plain
   * http://localhost); refused unless NODE_ENV is unset, development or test: elsewhere a plain cookie could be planted or read.
   */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean({ message: 'must be true or false' })
  @DevelopmentOnly(false, 'the session cookie must be Secure and __Host- outside development and tests')
  DASHBOARD_SECURE_COOKIE = true;
}
