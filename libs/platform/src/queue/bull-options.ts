import type { ConnectionOptions } from 'bullmq';
import { REDIS_COMMAND_TIMEOUT_MS, REDIS_CONNECT_TIMEOUT_MS, REDIS_KEEPALIVE_MS } from '../redis/service-redis';

/** BullMQ key prefix: every queue key of a deployment starts with PP_NAMESPACE, like every other Redis key. */
export const queuePrefix = (namespace: string): string => (namespace ? `${namespace}:bull` : 'bull');

/**
 * A worker's connection options from REDIS_URL. maxRetriesPerRequest null
 * and no command deadline: BullMQ's blocking commands wait for jobs on
 * purpose and must not give up.
 */
export const bullWorkerConnection = (url: string): ConnectionOptions => ({ ...redisAddress(new URL(url)), maxRetriesPerRequest: null });

/**
 * A queue's connection options from REDIS_URL, for the calls a service
 * makes to put jobs in and read their states. They have the services'
 * Redis deadline (REDIS_COMMAND_TIMEOUT_MS, service-redis.ts): without it,
 * a Redis that stops answering without closing the connection (a paused
 * server, a cut network) held such a call, and the sweeper waiting on it,
 * for as long as the connection lived. Past it the call fails, and its
 * caller tries again on its next interval; Postgres holds the work.
 */
export const bullQueueConnection = (url: string, commandTimeoutMs = REDIS_COMMAND_TIMEOUT_MS): ConnectionOptions => ({
  ...redisAddress(new URL(url)),
  maxRetriesPerRequest: null,
  commandTimeout: commandTimeoutMs,
  connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
});

/** Where and how BullMQ's connections reach Redis, from REDIS_URL, with the services' TCP keepalive (service-redis.ts). */
const redisAddress = (parsed: URL) => ({
  host: parsed.hostname,
  port: Number(parsed.port || 6379),
  // Decoded as ioredis decodes the service's own connection URL, or an ACL user named with a %-escape fails only here.
  username: parsed.username ? decodeURIComponent(parsed.username) : undefined,
  password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
  db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
  tls: parsed.protocol === 'rediss:' ? {} : undefined,
  keepAlive: REDIS_KEEPALIVE_MS,
});
