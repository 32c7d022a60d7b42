import { context, propagation, type Context } from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from 'nats';

/** Header names carried on every bus message. */
export const BusHeader = {
  RequestId: 'x-request-id',
  /** Epoch milliseconds after which the caller no longer waits. */
  Deadline: 'pp-deadline',
  /** On a message that carries several requests to one subject (request-coalescer.ts): how many. */
  Batch: 'pp-batch',
} as const;

export interface OutgoingMeta {
  requestId?: string;
  deadline?: number;
}

/** One request's headers as plain pairs: sent as NATS headers, or inside a batch, under the same names. */
export type HeaderPairs = Record<string, string>;

/** The headers of an outgoing request, with the active trace context (traceparent). */
export function headerPairs(meta: OutgoingMeta): HeaderPairs {
  const pairs: HeaderPairs = {};
  if (meta.requestId) pairs[BusHeader.RequestId] = meta.requestId;
  if (meta.deadline) pairs[BusHeader.Deadline] = String(meta.deadline);
  propagation.inject(context.active(), pairs);
  return pairs;
}

export function natsHeadersOf(pairs: HeaderPairs): MsgHdrs {
  const h = natsHeaders();
  for (const [key, value] of Object.entries(pairs)) h.set(key, value);
  return h;
}

/** Builds headers for an outgoing message, injecting the active trace context (traceparent). */
export const buildHeaders = (meta: OutgoingMeta): MsgHdrs => natsHeadersOf(headerPairs(meta));

export interface IncomingMeta {
  requestId?: string;
  deadline?: number;
  traceContext: Context;
}

export function readHeaders(h: MsgHdrs | undefined): IncomingMeta {
  return incomingMeta((key) => h?.get(key) || undefined, () => (h ? [...h.keys()] : []));
}

/** The metadata of one request of a batch; anything that is not a string pair is ignored. */
export function readHeaderPairs(pairs: unknown): IncomingMeta {
  const own = typeof pairs === 'object' && pairs !== null ? (pairs as Record<string, unknown>) : {};
  const get = (key: string) => (typeof own[key] === 'string' && own[key] ? (own[key] as string) : undefined);
  return incomingMeta(get, () => Object.keys(own));
}

function incomingMeta(get: (key: string) => string | undefined, keys: () => string[]): IncomingMeta {
  const deadline = Number(get(BusHeader.Deadline));
  return {
    requestId: get(BusHeader.RequestId),
    deadline: Number.isFinite(deadline) && deadline > 0 ? deadline : undefined,
    traceContext: propagation.extract(context.active(), undefined, { get: (_carrier, key) => get(key), keys }),
  };
}
