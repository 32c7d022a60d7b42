/**
 * TCP keepalive on every connection a service opens to Postgres (node-postgres
 * leaves it off): after this long without traffic the client probes the
 * server, so a connection whose server vanished without closing it (a node
 * gone, a failover to a new address, a network cut) fails and leaves its pool,
 * where a query sent on it before would have waited for its answer for good,
 * holding its pool slot. Node (libuv) probes every second, ten times, so an
 * idle connection to a vanished server fails about 20 s after its last
 * traffic. Probes do not find out a statement left unanswered (a frozen
 * server's kernel answers them; a statement not yet acknowledged is sent
 * again instead, for some 15 minutes): the answer deadline ends that
 * connection (SERVICE_SESSION_LIMITS).
 */
export const POSTGRES_KEEPALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 } as const;
