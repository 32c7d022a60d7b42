import { context, propagation, type Context } from '@opentelemetry/api';
import { headers as natsHeaders, type MsgHdrs } from 'nats';

/** Header names carried on every bus message. */
export const BusHeader = {
  RequestId: 'x-request-id',
  /** Epoch milliseconds after which the caller no longer waits. */
  Deadline: 'pp-deadline',
} as const;

export interface OutgoingMeta {
  requestId?: string;
  deadline?: number;
}

/** Builds headers for an outgoing message, injecting the active trace context (traceparent). */
export function buildHeaders(meta: OutgoingMeta): MsgHdrs {
  const h = natsHeaders();
  if (meta.requestId) h.set(BusHeader.RequestId, meta.requestId);
  if (meta.deadline) h.set(BusHeader.Deadline, String(meta.deadline));
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

export function readHeaders(h: MsgHdrs | undefined): IncomingMeta {
  const deadline = Number(h?.get(BusHeader.Deadline));
  return {
    requestId: h?.get(BusHeader.RequestId) || undefined,
    deadline: Number.isFinite(deadline) && deadline > 0 ? deadline : undefined,
    traceContext: propagation.extract(context.active(), h, {
      get: (carrier, key) => carrier?.get(key) || undefined,
      keys: (carrier) => (carrier ? [...carrier.keys()] : []),
    }),
  };
}
