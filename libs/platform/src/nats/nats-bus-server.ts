import { randomUUID } from 'node:crypto';
import { type CustomTransportStrategy, type MessageHandler, Server } from '@nestjs/microservices';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { DomainError, ErrorCode, isWireError, type ServiceName, type WireError } from '@pp/contracts';
import type { Msg, NatsConnection, Subscription } from 'nats';
import { lastValueFrom } from 'rxjs';
import { requestContext } from '../logging/request-context';
import { busOutcome, type BusMetrics } from '../metrics/bus-metrics';
import { inSpan } from '../telemetry/in-span';
import type { BusReply } from './bus-envelope';
import { BusContext } from './bus-context';
import { BusHeader, type IncomingMeta, readHeaderPairs, readHeaders } from './bus-headers';
import { MAX_BATCH_REQUESTS } from './request-coalescer';
import { subjectPrefix } from './connect-nats';
import { handlerMismatches } from './served-subjects';

export interface NatsBusServerOptions {
  nc: NatsConnection;
  prefix: string;
  /** The service whose handlers these are: its subjects are checked against the registry, and its name is the queue group replicas share. */
  service: ServiceName;
  /** Rate, outcome and duration per subject. */
  metrics: BusMetrics;
}

/**
 * Nest transport strategy for request-reply over core NATS, on the process's
 * shared connection. It adds what Nest's built-in NATS transport lacks:
 * subject prefixes, request ids, deadlines and trace context from headers,
 * a typed error envelope, and a start-up check that the process handles
 * exactly the subjects the registry gives its service.
 */
export class NatsBusServer extends Server implements CustomTransportStrategy {
  private readonly subscriptions: Subscription[] = [];
  /** Every handler's pattern as Nest registers it; Nest's own map keeps only the last of two handlers for one subject. */
  private readonly patterns: string[] = [];

  constructor(private readonly options: NatsBusServerOptions) {
    super();
  }

  override addHandler(...args: Parameters<Server['addHandler']>): void {
    this.patterns.push(this.normalizePattern(args[0]));
    super.addHandler(...args);
  }

  listen(callback: (error?: Error) => void): void {
    const mismatches = handlerMismatches(this.options.service, this.patterns);
    if (mismatches.length > 0) {
      callback(new Error(`its bus handlers do not match the subject registry (libs/contracts/src/bus-access): ${mismatches.join('; ')}`));
      return;
    }
    const prefix = subjectPrefix(this.options.prefix);
    for (const [pattern, handler] of this.messageHandlers) {
      const subject = prefix + pattern;
      this.subscriptions.push(
        this.options.nc.subscribe(subject, {
          queue: this.options.service,
          callback: (error, msg) => {
            if (error) this.logger.error(`subscription ${subject} failed`, error);
            else void this.answer(pattern, handler, msg);
          },
        }),
      );
    }
    callback();
  }

  async close(): Promise<void> {
    await Promise.all(this.subscriptions.splice(0).map((sub) => sub.drain()));
  }

  on(): never {
    throw new Error('NatsBusServer emits no events');
  }

  unwrap<T>(): T {
    return this.options.nc as T;
  }

  private async answer(pattern: string, handler: MessageHandler, msg: Msg): Promise<void> {
    if (msg.headers?.get(BusHeader.Batch)) return this.answerBatch(pattern, handler, msg);
    const reply = await this.answerOne(pattern, handler, () => parseJson(msg.data), readHeaders(msg.headers));
    if (reply && msg.reply) msg.respond(Buffer.from(JSON.stringify(reply)));
  }

  /**
   * A batch from RequestCoalescer: each request runs as if it had come alone;
   * the answers that are ready in the same turn go back in one message, so a
   * slow request holds back no other.
   */
  private async answerBatch(pattern: string, handler: MessageHandler, msg: Msg): Promise<void> {
    let requests: unknown;
    try {
      requests = parseJson(msg.data);
    } catch {
      requests = undefined;
    }
    if (!Array.isArray(requests) || requests.length === 0 || requests.length > MAX_BATCH_REQUESTS) {
      this.logger.error(`dropping a malformed batch on ${pattern}`); // the callers time out, as with no answer
      return;
    }
    let ready: Array<[number, BusReply<unknown>]> = [];
    const send = () => {
      const parts = ready;
      ready = [];
      if (msg.reply) msg.respond(Buffer.from(JSON.stringify(parts)));
    };
    await Promise.all(
      requests.map(async (request: unknown, index) => {
        const { h, p } = (typeof request === 'object' && request !== null ? request : {}) as { h?: unknown; p?: unknown };
        const reply = await this.answerOne(pattern, handler, () => p ?? {}, readHeaderPairs(h));
        if (!reply) return;
        if (ready.push([index, reply]) === 1) setImmediate(send);
      }),
    );
  }

  /** One request's answer; undefined when its caller has stopped waiting. */
  private async answerOne(pattern: string, handler: MessageHandler, payload: () => unknown, meta: IncomingMeta): Promise<BusReply<unknown> | undefined> {
    const started = performance.now();
    if (meta.deadline && meta.deadline < Date.now()) {
      this.options.metrics.expired(pattern);
      return undefined;
    }
    const ctx = { requestId: meta.requestId ?? randomUUID(), deadline: meta.deadline };
    const reply = await inSpan(
      'pp-bus',
      `bus ${pattern}`,
      { kind: SpanKind.SERVER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': pattern } },
      async () => {
        const answer = await requestContext.run(ctx, () => this.invoke(pattern, handler, payload, meta));
        // A refusal (validation, not found, conflict) is an answer; only a fault marks the span failed.
        if (!answer.ok && answer.error.code === ErrorCode.Internal) trace.getActiveSpan()?.setStatus({ code: SpanStatusCode.ERROR });
        return answer;
      },
      meta.traceContext,
    );
    this.options.metrics.answered(pattern, busOutcome(reply), performance.now() - started);
    return reply;
  }

  private async invoke(pattern: string, handler: MessageHandler, read: () => unknown, meta: IncomingMeta): Promise<BusReply<unknown>> {
    let payload: unknown;
    try {
      payload = read();
    } catch {
      return { ok: false, error: { code: ErrorCode.ValidationFailed, message: 'Validation failed: payload is not JSON' } };
    }
    try {
      const result = await handler(payload, new BusContext([pattern, meta]));
      const data = await lastValueFrom(this.transformToObservable(result), { defaultValue: null });
      return { ok: true, data };
    } catch (error) {
      return { ok: false, error: toWireError(error) };
    }
  }
}

/** An empty message is an empty payload. */
const parseJson = (data: Uint8Array): unknown => (data.length > 0 ? JSON.parse(Buffer.from(data).toString('utf8')) : {});

/** Errors reach here already shaped by BusExceptionFilter; anything else is internal. */
function toWireError(error: unknown): WireError {
  if (error instanceof DomainError) return error.toWire();
  if (isWireError(error)) return error;
  return { code: ErrorCode.Internal, message: 'Internal error' };
}
