import type { AppendStreamsRequest, EventMetadata } from '@pp/contracts';

/** What the transport knows about an append besides its payload. */
export interface AppendContext {
  requestId?: string;
  trace?: Record<string, string>;
  /** When the caller stops waiting (ms since the epoch, its pp-deadline): an append still queued then is never committed. */
  deadline?: number;
}

/** The versions one append wrote to one stream, as the idempotency record keeps them. */
export interface StreamRange {
  stream_id: string;
  first_version: number;
  last_version: number;
}

/** The metadata stored with every event of an append. */
export function eventMetadata(request: AppendStreamsRequest, context: AppendContext): EventMetadata {
  return {
    merchant_id: request.metadata.merchant_id,
    livemode: request.metadata.livemode,
    ...(request.idempotency ? { idempotency_key: request.idempotency.key } : {}),
    ...(request.metadata.causation_id ? { causation_id: request.metadata.causation_id } : {}),
    ...(context.requestId ? { correlation_id: context.requestId } : {}),
    ...(context.trace && Object.keys(context.trace).length > 0 ? { trace: context.trace } : {}),
  };
}

/** The versions each stream of an append will take (what its idempotency record keeps). */
export const streamRanges = (request: AppendStreamsRequest): StreamRange[] =>
  request.streams.map((stream) => ({
    stream_id: stream.stream_id,
    first_version: stream.expected_version + 1,
    last_version: stream.expected_version + stream.events.length,
  }));

/** Every stream an append names, written or required unchanged, once. */
export const namedStreams = (request: AppendStreamsRequest): string[] => [...request.streams, ...(request.unchanged ?? [])].map((stream) => stream.stream_id);

export const hasDistinctStreams = (request: AppendStreamsRequest): boolean => {
  const named = namedStreams(request);
  return new Set(named).size === named.length;
};
