import type { ListIterator } from '../http/list';
import { readServerSentEvents } from '../http/server-sent-events';
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

  /** POST /v1/events/:id/resend: a new delivery now, to every subscribed endpoint or to `endpoint_id`. */
  resend(id: string, params: { endpoint_id?: string } = {}, options: RequestOptions = {}): Promise<ResendEventResult> {
    return this.call('resendEvent', options, { id, body: params });
  }

  /**
   * GET /v1/events/stream: new events as they happen, for as long as the
   * connection lasts (it ends on a gateway restart; connect again with
   * `lastEventId`, the id of the last event received, to miss nothing;
   * events from the few seconds before it may come again, so dedupe on id).
   * Without `lastEventId`, `since` (an event id, or 'start') or else now.
   */
  async *stream(params: { lastEventId?: string; since?: string; types?: EventType[] } = {}, options: RequestOptions = {}): AsyncGenerator<Event> {
    const response = await this.transport.open(
      routePath('streamEvents'),
      { since: params.since, types: params.types?.join(',') },
      params.lastEventId ? { 'last-event-id': params.lastEventId } : {},
      options,
    );
    if (!response.body) return;
    for await (const message of readServerSentEvents(response.body)) yield JSON.parse(message.data) as Event;
  }
}
