import { context, propagation, type Context } from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from 'nats';
import { isWellFormedRequestId } from '../http/request-id';

/** Header names carried on every bus message. */
export const BusHeader = {
  RequestId: 'x-request-id',
  /** Epoch milliseconds after which the caller no longer waits, by the caller's clock (read only from callers older than pp-timeout-ms). */
  Deadline: 'pp-deadline',
  /** Milliseconds the caller still waits, as it sends: the receiver dates it by its own clock. */
  TimeoutMs: 'pp-timeout-ms',
} as const;

/**
 * Taken off a received pp-timeout-ms: the time the message spent on its way and waiting for the receiver's event loop,
 * so that a receiver never counts on more time than its caller still gives it (the ledger refuses an append past it).
 */
export const TRANSIT_MARGIN_MS = 25;

export interface OutgoingMeta {
  requestId?: string;
  /** Milliseconds the caller still waits: sent as it is, and as the epoch deadline it makes by this clock. */
  timeoutMs?: number;
}

/** Builds headers for an outgoing message, injecting the active trace context (traceparent). */
export function buildHeaders(meta: OutgoingMeta): MsgHdrs {
  const h = natsHeaders();
  if (meta.requestId) h.set(BusHeader.RequestId, meta.requestId);
  if (meta.timeoutMs !== undefined) {
    h.set(BusHeader.Deadline, String(Date.now() + meta.timeoutMs));
    h.set(BusHeader.TimeoutMs, String(Math.max(0, meta.timeoutMs)));
  }
  propagation.inject(context.active(), h, {
    set: (carrier, key, value) => carrier.set(key, value),
  });
  return h;
}

export interface IncomingMeta {
  requestId?: string;
  deadline?: number;
  traceContext: Context;
}

/**
 * What a received message says of its caller. Its deadline is dated by this
 * process's clock from the time the caller still waits (pp-timeout-ms), less
 * TRANSIT_MARGIN_MS: an epoch time from another host would carry the skew
 * between the two clocks, so that a receiver whose clock is behind would
 * still work for a caller that has given up. A caller from before
 * pp-timeout-ms sends its epoch deadline alone, which is read as it is.
 */
export function readHeaders(h: MsgHdrs | undefined): IncomingMeta {
  const requestId = h?.get(BusHeader.RequestId);
  return {
    // Kept only when plain and short, as at the HTTP edge: it is logged, forwarded and stored with appends.
    requestId: isWellFormedRequestId(requestId) ? requestId : undefined,
    deadline: receivedDeadline(h),
    traceContext: readTraceContext(h),
  };
}

/** The W3C trace context a message's headers carry (its traceparent), over the active context. */
export function readTraceContext(h: MsgHdrs | undefined): Context {
  return propagation.extract(context.active(), h, {
    get: (carrier, key) => carrier?.get(key) || undefined,
    keys: (carrier) => (carrier ? [...carrier.keys()] : []),
  });
}

function receivedDeadline(h: MsgHdrs | undefined): number | undefined {
  const sent = h?.get(BusHeader.TimeoutMs);
  const remaining = sent ? Number(sent) : NaN;
  if (Number.isFinite(remaining) && remaining >= 0) return Date.now() + remaining - TRANSIT_MARGIN_MS;
  const deadline = Number(h?.get(BusHeader.Deadline));
  return Number.isFinite(deadline) && deadline > 0 ? deadline : undefined;
}
