/**
 * What a route says about how long its answer may take: nothing (the default), the longest call it makes when that
 * call has its own, longer timeout than NATS_REQUEST_TIMEOUT_MS (a raw e-mail handed to the ingest service), or `none`
 * for a route that answers for as long as the client listens (the event stream).
 */
export type RouteDeadline = { longestCallMs: number; fromBody?: boolean } | 'none';

/** Whether the route's clock starts at its body's last byte (an upload) rather than at its headers. */
export const startsAtBody = (route: RouteDeadline | undefined): boolean => route !== undefined && route !== 'none' && route.fromBody === true;

/**
 * Time for everything a request does besides its longest call: the API key lookup in Postgres, the Redis round trips
 * (rate limit, Idempotency-Key), a second, quick call. Each of those has its own bound, but several in turn had none.
 */
export const OTHER_WORK_MS = 5_000;

/**
 * How long the gateway works on a request before it answers 503 and stops waiting: its longest call (by default one
 * bus call's deadline, NATS_REQUEST_TIMEOUT_MS) plus OTHER_WORK_MS; 10 s with the defaults. The bus call in flight is
 * cut to what is left, and a call due after the deadline is never made (BusClient reads the deadline from the request
 * context). Undefined: no deadline.
 */
export function answerDeadlineMs(route: RouteDeadline | undefined, busTimeoutMs: number): number | undefined {
  if (route === 'none') return undefined;
  return Math.max(route?.longestCallMs ?? 0, busTimeoutMs) + OTHER_WORK_MS;
}
