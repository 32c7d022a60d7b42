import { UnexpectedResponseError } from '../errors';
import type { ListIterator } from '../http/list';
import { readServerSentEvents, type ServerSentEvent } from '../http/server-sent-events';
import { routePath } from '../routes';
import type { RequestOptions } from '../http/transport';
import type { Event, EventDetail, EventType, ListEventsParams, ResendEventResult } from '../types';
import { Resource } from './resource';

export class Events extends Resource {
  /** GET /v1/events, newest first. */
  list(params: ListEventsParams = {}, options: RequestOptions = {}): ListIterator<Event> {
    return this.paged<Event>('listEvents', { ...params }, options);
  }

  /** GET /v1/events/:id, with its webhook delivery attempts. */
  retrieve(id: string, options: RequestOptions = {}): Promise<EventDetail> {
    return this.call('retrieveEvent', options, { id });
  }

  /**
   * POST /v1/events/:id/resend: a new delivery now, to every subscribed endpoint or to `endpoint_id`. Retried like
   * any POST: the webhooks service records the Idempotency-Key with the deliveries it made due (for 24 hours), so a
   * retry after a 5xx or a lost answer gets what the first attempt queued and queues nothing more.
   */
  resend(id: string, params: { endpoint_id?: string } = {}, options: RequestOptions = {}): Promise<ResendEventResult> {
    return this.call('resendEvent', options, { id, body: params });
  }

  /**
   * GET /v1/events/stream: new events as they happen, for as long as the
   * connection lasts (it ends on a gateway restart; connect again with
   * `lastEventId`, the id of the last event received, to miss nothing;
   * events from the few seconds before it may come again, so dedupe on id).
   * A stream silent for STREAM_IDLE_TIMEOUT_MS (45 s; the gateway sends a
   * keep-alive every 15 s) fails with a ConnectionError: connect again.
   * Without `lastEventId`, `since` (an event id, or 'start') or else now.
   * `types` limits it to those event types; empty or absent, every type.
   */
  async *stream(params: { lastEventId?: string; since?: string; types?: EventType[] } = {}, options: RequestOptions = {}): AsyncGenerator<Event> {
    const stream = await this.transport.open(
      routePath('streamEvents'),
      // Left out when empty: the gateway refuses `types=` (400), and no type named means every type.
      { since: params.since, types: params.types?.length ? params.types.join(',') : undefined },
      params.lastEventId ? { 'last-event-id': params.lastEventId } : {},
      options,
    );
    try {
      for await (const message of readServerSentEvents(stream.body)) yield streamedEvent(message, stream.requestId);
    } finally {
      stream.close();
    }
  }
}

/**
 * The message's event. A message that is not one is an UnexpectedResponseError:
 * a SyntaxError, or a TypeError later in the caller's code, would not say
 * where it came from. What the follower relies on is checked: the id, type
 * and time, and a data object.
 */
function streamedEvent(message: ServerSentEvent, requestId: string): Event {
  const event = parsedOrUndefined(message.data) as Partial<Record<keyof Event, unknown>> | null | undefined;
  const text = (value: unknown) => typeof value === 'string';
  if (typeof event !== 'object' || event === null || !text(event.id) || !text(event.type) || !text(event.created_at) || typeof event.data !== 'object' || event.data === null) {
    throw new UnexpectedResponseError(`the event stream sent a message that is not an event (message id ${message.id ?? 'none'})`, undefined, requestId);
  }
  return event as Event;
}

function parsedOrUndefined(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}
