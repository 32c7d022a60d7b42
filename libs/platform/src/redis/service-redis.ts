import Redis from 'ioredis';
import { writeOncePerTurn } from './write-once-per-turn';

/**
 * How long a service waits for Redis to answer one command. Its commands
 * (the rate limit's and idempotency's scripts, the dashboard's sessions and
 * login limits) take a millisecond or two. Without a deadline, a Redis that
 * stops answering without closing the connection (a paused server, a cut
 * network) held every request waiting on it for as long as the connection
 * lived. Past it the command fails, and its caller does what it does when
 * Redis is away: the rate limit lets the request through, idempotency
 * answers 503. Long enough that only a pause of the service's own event
 * loop longer than that could fail a command whose answer is already
 * waiting in the socket (timers run before the socket is read).
 */
export const REDIS_COMMAND_TIMEOUT_MS = 2000;

/** How long a service waits for a new Redis connection before reporting Redis unreachable. */
export const REDIS_CONNECT_TIMEOUT_MS = 3000;

/**
 * TCP keepalive after this long without traffic, on every Redis connection
 * (BullMQ's too): a connection whose server vanished without closing it fails
 * and is made again, where ioredis' default waits the system's two hours.
 */
export const REDIS_KEEPALIVE_MS = 10_000;

/**
 * A service's own Redis connection, not yet connected (BullMQ makes its own
 * from the same URL: its queues' with this deadline, its workers' without,
 * since their commands block on purpose; bull-options.ts). Commands issued in the same turn (the
 * rate limit and idempotency calls of concurrent requests) share one write
 * and one read (writeOncePerTurn).
 */
export function serviceRedis(url: string, commandTimeoutMs = REDIS_COMMAND_TIMEOUT_MS): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 2,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: commandTimeoutMs,
    keepAlive: REDIS_KEEPALIVE_MS,
  });
  writeOncePerTurn(redis);
  return redis;
}
