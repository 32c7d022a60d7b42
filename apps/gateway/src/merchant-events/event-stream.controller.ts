import { Controller, Get, Headers, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { EVENT_ID_PATTERN, EventStreamParams, MAX_PAGE_LIMIT, type MerchantEventView, type MerchantScope } from '@pp/contracts';
import { BusClient, destroyAnswered, JsonLogger } from '@pp/platform';
import { followFromStart, followAfter, followAfterAll, type FollowState, recordHandled } from '@pp/sdk';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { presentedCredential } from '../access/access.hook';
import { KeyScope } from '../access/request-params';
import { SecretKeyRoute } from '../access/route-access';
import { ApiError } from '../http/api-error';
import { NoAnswerDeadline } from '../http/answer-deadline.decorators';
import { ApiKeyAuthenticator } from '../identity/api-key.authenticator';
import type { KeyPrincipal } from '../identity/principal';
import { INVALID_QUERY, parseListQuery } from '../http/list-query';
import { lookStart, nextPageStart, type PageStart, stillToSend } from './forward-look';
import { expectedEnding, KeyNoLongerValid } from './stream-endings';
import { inStreamRound } from './stream-round-trace';
import { MerchantEventFeed } from './merchant-event.feed';
import { MAX_STREAMS_PER_KEY, OpenEventStreams } from './open-event-streams';
import { StalledReaderError, writeWhenReady } from './write-when-ready';

/** How often a stream also reads the durable log, in case the live feed missed an event (it never should). */
const SAFETY_LOOK_MS = 10_000;
/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;
/** How long a write waits for a client that reads nothing before the stream is closed on it. */
const MAX_WRITE_WAIT_MS = 2 * HEARTBEAT_MS;
/** Live events a stream keeps while it reads the log; past that it leaves them to the log (a look reads them there). */
const MAX_LIVE_EVENTS_KEPT = MAX_PAGE_LIMIT;

const frame = (event: MerchantEventView) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

/**
 * The merchant's events as Server-Sent Events. New events come live from the
 * ledger's JetStream stream (MerchantEventFeed); the ledger's durable event
 * log (its merchant_events read model, in append order) is read forward, a
 * page at a time (forward-look.ts), when the stream opens, whenever the feed
 * (re)starts and every SAFETY_LOOK_MS, so a client that reconnects with
 * Last-Event-ID misses nothing: the CLI's `listen` and `events tail` follow
 * it. The same follow state keeps an event seen both ways from being sent
 * twice (libs/sdk events/follow-state.ts). A stream holds at most a page of
 * the log and a page of live events, and waits for a client that reads slowly.
 */
@ApiTags('events')
@Controller('v1/events')
export class EventStreamController {
  constructor(
    private readonly bus: BusClient,
    private readonly streams: OpenEventStreams,
    private readonly feed: MerchantEventFeed,
    private readonly keys: ApiKeyAuthenticator,
    private readonly logger: JsonLogger,
  ) {}

  @Get('stream')
  @SecretKeyRoute('events.read')
  @NoAnswerDeadline() // open for as long as the client reads; each of its bus calls keeps its own deadline
  @ApiOperation({ summary: 'Follow new events as Server-Sent Events; reconnect with Last-Event-ID to resume' })
  @ApiQuery({ name: 'types', required: false, description: 'Comma-separated event types to send (default all)' })
  @ApiQuery({ name: 'since', required: false, description: 'An event id to continue after, or "start"; default now. Last-Event-ID takes precedence' })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The id of the last event received: the stream continues after it' })
  @ApiProduces('text/event-stream')
  @ApiResponse({ status: 200, description: 'text/event-stream of `id: evt_…`, `event: <type>`, `data: <the event as GET /v1/events shows it>`' })
  @ApiResponse({ status: 429, description: `The key already holds ${MAX_STREAMS_PER_KEY} open streams on this gateway` })
  async stream(
    @Query() raw: Record<string, unknown>,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Headers('authorization') authorization: string | undefined,
    @KeyScope() scope: MerchantScope,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const params = parseListQuery(EventStreamParams, raw);
    if (lastEventId !== undefined && !EVENT_ID_PATTERN.test(lastEventId)) throw new ApiError(400, INVALID_QUERY);
    let state = await this.startingState(scope, lastEventId ?? params.since);
    const types = params.types ? new Set(params.types.split(',')) : undefined;
    const closed = this.streams.open(reply.raw, (request.principal as KeyPrincipal).key_id);
    if (!closed) throw new ApiError(429, `This key already holds ${MAX_STREAMS_PER_KEY} open event streams: close one first`, { 'Retry-After': '10' });
    // The access hook checked the key when the stream opened; a stream outlives that check, so it asks again before
    // each send (a cache hit, dropped when the key is revoked) and ends once the key is revoked or expired.
    const presented = presentedCredential(authorization);
    const keyStillValid = async () => {
      try {
        return presented !== undefined && (await this.keys.authenticate(presented)) !== undefined;
      } catch (error) {
        this.logger.warn('event stream ended: its API key could not be checked', { error: error instanceof Error ? error.message : String(error) });
        return false;
      }
    };

    reply.hijack();
    const response = reply.raw;
    response.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    const write = (text: string) => writeWhenReady(response, text, closed, MAX_WRITE_WAIT_MS);
    await write('retry: 1000\n\n');
    let lastWrite = Date.now();
    const send = async (event: MerchantEventView) => {
      if (!types || types.has(event.type)) {
        // Before every frame: a page or a live batch can take minutes to drain through a slow reader.
        if (!(await keyStillValid())) throw new KeyNoLongerValid();
        await write(frame(event));
        lastWrite = Date.now(); // only a frame written keeps the connection alive for proxies and shows a vanished client
      }
      state = recordHandled(state, event);
    };
    // Listen before the first look, so nothing committed in between falls through.
    const live: MerchantEventView[] = [];
    let lookDue = true;
    let lastLook = 0;
    /** Where the look in progress reads next; undefined between looks. */
    let look: PageStart | undefined;
    let wake: (() => void) | undefined;
    const stopListening = this.feed.listen(scope, (signal) => {
      if (signal.kind === 'event' && live.length < MAX_LIVE_EVENTS_KEPT) live.push(signal.event);
      else lookDue = true;
      wake?.();
    });
    closed.addEventListener('abort', () => wake?.(), { once: true });
    try {
      while (!closed.aborted) {
        // A revoked key or a reader that stopped reading ends the stream as it should: not an error of the round's span.
        const ending = await inStreamRound(request.span, () => expectedEnding(async () => {
          if (!(await keyStillValid())) throw new KeyNoLongerValid();
          if (!look && (lookDue || Date.now() - lastLook >= SAFETY_LOOK_MS)) {
            lastLook = Date.now();
            lookDue = false;
            look = lookStart(state);
          }
          if (look) {
            const page = await this.bus.request('ledger.merchant-events.list.v1', { ...scope, order: 'oldest_first', limit: MAX_PAGE_LIMIT, ...look });
            for (const event of page.data) if (stillToSend(state, event)) await send(event);
            look = nextPageStart(page);
          }
          // Between looks only: a newer live event sent amid one would move the settle window past the events still to read.
          if (!look) for (const event of live.splice(0)) if (stillToSend(state, event)) await send(event);
          if (Date.now() - lastWrite >= HEARTBEAT_MS) {
            await write(': keep-alive\n\n');
            lastWrite = Date.now();
          }
        }));
        if (ending) throw ending;
        if (!look && live.length === 0 && !lookDue && !closed.aborted) await this.nextSignal((resolve) => (wake = resolve));
        wake = undefined;
      }
    } catch (error) {
      if (error instanceof KeyNoLongerValid) {
        this.logger.info('event stream ended: its API key no longer authenticates (revoked, expired, or not checkable)', { merchant_id: scope.merchant_id });
        response.end();
        return;
      }
      if (error instanceof StalledReaderError) {
        // Its buffer is full: an orderly end would wait behind it. The client may reconnect and resume.
        this.logger.info('event stream closed: the client stopped reading', { merchant_id: scope.merchant_id });
        destroyAnswered(response);
        return;
      }
      // End the stream rather than hide a gap: the client reconnects and resumes after the last id it got.
      this.logger.warn('event stream ended: the event log did not answer', { error: error instanceof Error ? error.message : String(error) });
    } finally {
      stopListening();
    }
    response.end();
  }

  /** Resolves at the next feed signal or abort (through `arm`), or when a heartbeat or safety look is due. */
  private nextSignal(arm: (resolve: () => void) => void): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.min(HEARTBEAT_MS, SAFETY_LOOK_MS));
      arm(() => (clearTimeout(timer), resolve()));
    });
  }

  /** `start`: the whole log; an event id: after it (404 when it is not the merchant's); none: after what the log holds now (a page of the newest). */
  private async startingState(scope: MerchantScope, since: string | undefined): Promise<FollowState> {
    if (since === 'start') return followFromStart();
    if (since) return followAfter(await this.bus.request('ledger.merchant-events.get.v1', { ...scope, event_id: since }));
    return followAfterAll((await this.bus.request('ledger.merchant-events.list.v1', { ...scope, limit: MAX_PAGE_LIMIT })).data);
  }
}
