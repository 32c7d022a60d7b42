import type { ServiceName } from '@pp/contracts';

/**
 * The Redis ACL users of a deployment (docs/SECURITY.md, "Redis"): each
 * service that uses Redis logs in as its own user, limited to its own keys.
 * Patterns are without PP_NAMESPACE; `redisUserRules` prefixes it. The
 * compose file and the Kubernetes ACL template are checked against this list
 * (deploy/*.unit.spec.ts), and the test stack runs every service as its user.
 */
export const REDIS_USERS = {
  gateway: ['gateway:*'],
  sessions: ['bull:session-expiry:*'],
  webhooks: ['bull:webhook-delivery:*'],
  dashboard: ['dashboard:*'],
} as const satisfies Partial<Record<ServiceName, readonly string[]>>;

export type RedisService = keyof typeof REDIS_USERS;

/**
 * The commands every service user may run: all but administration and the
 * dangerous ones (KEYS, FLUSHALL, CONFIG, CLIENT KILL...). INFO comes back
 * because BullMQ reads the server's version. Key patterns do not limit what
 * SCAN and RANDOMKEY show, so they would list every service's key names;
 * SCRIPT FLUSH/KILL and FUNCTION act on the whole server, not on own keys.
 * No Pub/Sub channel: no service uses one.
 */
export const REDIS_COMMAND_RULES = [
  'resetchannels',
  '+@all',
  '-@admin',
  '-@dangerous',
  '+info',
  '-scan',
  '-randomkey',
  '-script|flush',
  '-script|kill',
  '-function',
] as const;

export const isRedisService = (service: ServiceName): service is RedisService => service in REDIS_USERS;

/** A service user's ACL rules after `on` and its password: its key patterns under `namespace`, then REDIS_COMMAND_RULES. */
export function redisUserRules(service: RedisService, namespace = ''): string[] {
  const prefix = namespace ? `${namespace}:` : '';
  return [...REDIS_USERS[service].map((pattern) => `~${prefix}${pattern}`), ...REDIS_COMMAND_RULES];
}
