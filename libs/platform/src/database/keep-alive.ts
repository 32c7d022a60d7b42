/**
 * TCP keepalive on every connection a service opens to Postgres (node-postgres
 * leaves it off): after this long without traffic the client probes the
 * server, so a connection whose server vanished without closing it (a node
 * gone, a failover to a new address, a network cut) fails and leaves its pool,
 * where a query sent on it before would have waited for its answer for good,
 * holding its pool slot. Node (libuv) probes every second, ten times, so an
 * idle connection to a vanished server fails about 20 s after its last
 * traffic; one whose last query was never acknowledged waits for TCP's
 * retransmissions to give up instead (some 15 minutes on Linux defaults).
 */
export const POSTGRES_KEEPALIVE = { keepAlive: true, keepAliveInitialDelayMillis: 10_000 } as const;
