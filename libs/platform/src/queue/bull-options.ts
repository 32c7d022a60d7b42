import type { ConnectionOptions } from 'bullmq';

/** BullMQ key prefix: every queue key of a deployment starts with PP_NAMESPACE, like every other Redis key. */
export const queuePrefix = (namespace: string): string => (namespace ? `${namespace}:bull` : 'bull');

/**
 * BullMQ connection options from REDIS_URL. Workers need
 * maxRetriesPerRequest null (BullMQ's blocking commands must not give up);
 * queues accept it too.
 */
export const bullConnection = (url: string): ConnectionOptions => {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 6379),
    username: parsed.username || undefined,
    password: parsed.password ? decodeURIComponent(parsed.password) : undefined,
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
    maxRetriesPerRequest: null,
  };
};
