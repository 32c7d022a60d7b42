import type { OutgoingHttpHeaders } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, JsonLogger, urlPath } from '@pp/platform';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { GatewayConfig } from '../gateway.config';
import { IdempotencyHooks } from '../idempotency/idempotency.hooks';
import { answerDeadlineMs, startsAtBody } from './answer-deadline.policy';
import { SERVICE_RETRY_AFTER_SECONDS } from './error-response.filter';

/** Methods whose body, if one is sent, the gateway's routes never read. */
const BODILESS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);
const readsBody = (request: FastifyRequest): boolean => !BODILESS.has(request.method);

/** What the deadline answers: what a bus call past its deadline is answered (ErrorResponseFilter), so clients retry both alike. */
const LATE_ANSWER = JSON.stringify({ error: 'Service unavailable' });

/** Requests whose own answer has begun (Fastify runs its onSend hooks, which may wait on Redis): the deadline leaves them be. */
const answering = new WeakSet<FastifyRequest>();

/**
 * An overall bound on each request (answerDeadlineMs, 10 s with the defaults). Each wait on the way has its own bound
 * (the key lookup, each Redis command, each bus call), but a request that waits on several in turn had none, and its
 * client could wait far longer than any of them. Past the deadline the gateway answers 503 with Retry-After, in the
 * usual `{ "error" }` shape with the request id, and stops waiting: the bus call in flight was given no more than the
 * deadline, and later ones are not made (the deadline is in the request context, BusClient). The event stream declares
 * none (NoAnswerDeadline).
 *
 * The clock starts at the request's headers. A request whose body is still coming when it runs out is the client's
 * slowness, which HTTP_REQUEST_TIMEOUT_MS bounds (408, limitRequestBodyTime), not the gateway's: its clock starts again
 * once the body is in. An upload's route (a raw e-mail of megabytes: `@LongestCallAfterUpload`) starts its clock at
 * its body's last byte, so an upload that took most of the 408's time still leaves its call all of its own. (The body
 * is read after the key lookup; starting every clock only then would leave a slow lookup unbounded.)
 *
 * The answer is written past Fastify, after taking the reply over (hijack): from then on `reply.sent` is true, so the
 * handler's own answer when it ends, an error it throws (ErrorResponseFilter) or a hook still running (a reservation
 * that lands late, IdempotencyHooks.reserve) writes nothing. A request whose own answer has begun is left to finish it.
 * Its Idempotency-Key is freed, never kept with the 503 (IdempotencyHooks.abandon).
 */
@Injectable()
export class AnswerDeadline {
  private readonly busTimeoutMs: number;

  constructor(
    @Inject(CONFIG) config: GatewayConfig,
    private readonly idempotency: IdempotencyHooks,
    private readonly logger: JsonLogger,
  ) {
    this.busTimeoutMs = config.NATS_REQUEST_TIMEOUT_MS;
  }

  /** onRequest, before any hook that waits: starts the clock at the headers. */
  readonly arm = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    const limitMs = answerDeadlineMs(request.routeOptions.config?.answerDeadline, this.busTimeoutMs);
    if (limitMs === undefined) return done();
    const raw = request.raw;
    let timer: NodeJS.Timeout | undefined;
    const start = () => {
      request.deadline = Date.now() + limitMs;
      timer = setTimeout(expire, limitMs);
    };
    const expire = () => {
      // A body still coming is the client's slowness, which the 408 bounds: the clock starts again once it is in. A
      // request with a body its route never reads (a GET) would wait for that for ever: it is answered now.
      if (raw.complete || !readsBody(request)) this.answerLate(request, reply, limitMs);
      else raw.once('end', start);
    };
    // An upload's route counts from its body's last byte (startsAtBody): its arrival is the client's time.
    if (startsAtBody(request.routeOptions.config?.answerDeadline) && !raw.complete) raw.once('end', start);
    else start();
    // Answered, or the client left: nothing more to bound.
    reply.raw.once('close', () => {
      clearTimeout(timer);
      raw.removeListener('end', start);
    });
    done();
  };

  /** onSend, before the other onSend hooks: the request's own answer has begun. */
  readonly noteAnswer = (request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void): void => {
    answering.add(request);
    done(null, payload);
  };

  private answerLate(request: FastifyRequest, reply: FastifyReply, limitMs: number): void {
    // Sent or under way, or taken over by its handler (a stream): a second answer would corrupt the connection.
    if (reply.sent || reply.raw.headersSent || answering.has(request)) return;
    reply.hijack();
    this.idempotency.abandon(request);
    reply.raw.writeHead(503, {
      ...(reply.getHeaders() as OutgoingHttpHeaders), // X-Request-Id, rate-limit headers
      'retry-after': String(SERVICE_RETRY_AFTER_SECONDS),
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(LATE_ANSWER),
    });
    reply.raw.end(LATE_ANSWER);
    this.logger.warn('request deadline passed: answered 503', { method: request.method, path: urlPath(request.url), deadline_ms: limitMs });
  }
}
