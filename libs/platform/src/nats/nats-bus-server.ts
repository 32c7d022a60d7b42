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
import { type IncomingMeta, readHeaders } from './bus-headers';
import { subjectPrefix } from './connect-nats';
import { handlerMismatches, replyInboxes } from './served-subjects';

/**
 * How long a stop waits for the answers under way, before the service's connections close under them: until the
 * latest deadline their callers gave (a quarantine release is given 30 s), at least ANSWER_DRAIN_MS (for callers
 * that gave none), at most ANSWER_DRAIN_MAX_MS, so the stop ends within a pod's 45 s grace period (docker compose's
 * stop_grace_period too), a web app's 5 s preStop pause and 5 s HTTP drain included.
 */
export const ANSWER_DRAIN_MS = 5_000;
export const ANSWER_DRAIN_MAX_MS = 15_000;

/** What a caller gets when its answer cannot be sent as it is (larger than the server's max_payload, say). */
const UNSENDABLE: BusReply<never> = { ok: false, error: { code: ErrorCode.Internal, message: 'Internal error: the answer could not be sent' } };

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
  /** By pattern, the inboxes its answers may go to (replyInboxes). */
  private readonly inboxes = new Map<string, string[]>();
  /** Requests taken and not yet answered; `close` waits for them (ANSWER_DRAIN_MS). */
  private answering = 0;
  /** The latest deadline of the requests taken since none was under way (epoch ms; 0 when none gave one). */
  private latestDeadline = 0;
  private allAnswered?: () => void;
  /** By subject, why the server refused its subscription (its permissions); nats.js has closed that subscription. */
  private readonly refusals = new Map<string, string>();

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
      this.inboxes.set(pattern, replyInboxes(pattern));
      this.subscriptions.push(
        this.options.nc.subscribe(subject, {
          queue: this.options.service,
          callback: (error, msg) => {
            if (error) this.refuse(subject, error);
            else void this.answer(pattern, handler, msg);
          },
        }),
      );
    }
    // Ready only once the server has the subscriptions (a flush is answered after the commands before it), so a
    // request sent as soon as the service says it is ready finds its handler; a refusal arrives before that answer.
    this.options.nc.flush().then(
      () => callback(this.refusal()),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    );
  }

  /**
   * The service's health check of its subscriptions: fails once the server has refused one, at start-up or on a
   * reconnect after its permissions changed; the subject then stays unserved until the process restarts.
   */
  async subscribed(): Promise<void> {
    const refusal = this.refusal();
    if (refusal) throw refusal;
  }

  /**
   * Takes no more requests, then waits for those under way: Nest closes the database, Redis and the bus connection
   * next, and a handler cut off halfway would fail, its caller waiting for its whole deadline.
   */
  async close(): Promise<void> {
    // A refused subscription is closed already, and draining it would reject, failing the stop.
    await Promise.all(this.subscriptions.splice(0).filter((sub) => !sub.isClosed()).map((sub) => sub.drain()));
    if (this.answering === 0) return;
    const waitMs = Math.min(ANSWER_DRAIN_MAX_MS, Math.max(ANSWER_DRAIN_MS, this.latestDeadline - Date.now()));
    await new Promise<void>((resolve) => {
      this.allAnswered = resolve;
      setTimeout(resolve, waitMs).unref();
    });
  }

  on(): never {
    throw new Error('NatsBusServer emits no events');
  }

  unwrap<T>(): T {
    return this.options.nc as T;
  }

  private refuse(subject: string, error: Error): void {
    this.refusals.set(subject, error.message);
    this.logger.error(`subscription to ${subject} refused`, error);
  }

  private refusal(): Error | undefined {
    if (this.refusals.size === 0) return undefined;
    return new Error([...this.refusals].map(([subject, reason]) => `subscription to ${subject} refused: ${reason}`).join('; '));
  }

  /** Never rejects: a rejection nothing awaits would end the process (runService), and every request under way with it. */
  private async answer(pattern: string, handler: MessageHandler, msg: Msg): Promise<void> {
    this.answering += 1;
    const meta = readHeaders(msg.headers);
    this.latestDeadline = Math.max(this.latestDeadline, meta.deadline ?? 0);
    try {
      await this.answerRequest(pattern, handler, msg, meta);
    } catch (error) {
      this.logger.error(`answering a request on ${pattern} failed`, error instanceof Error ? error : String(error));
    } finally {
      if (--this.answering === 0) {
        this.latestDeadline = 0;
        this.allAnswered?.();
      }
    }
  }

  private async answerRequest(pattern: string, handler: MessageHandler, msg: Msg, meta: IncomingMeta): Promise<void> {
    const started = performance.now();
    if (meta.deadline && meta.deadline < Date.now()) return this.options.metrics.expired(pattern); // the caller has stopped waiting
    const reply = msg.reply;
    if (!reply || !this.inboxes.get(pattern)?.some((inbox) => reply.startsWith(inbox))) {
      // Refused before any work: the handler's effects would happen for an answer sent where the caller has no business.
      // Callers always wait for the answer; a message without a reply subject is nobody's call (a stream republishing
      // into the subject, say), so its effects would happen for no caller at all.
      this.logger.warn(`refused a request on ${pattern} whose reply subject is ${reply ? "none of its callers' inboxes" : 'missing'}`);
      return this.options.metrics.misdirected(pattern);
    }
    const ctx = { requestId: meta.requestId ?? randomUUID(), deadline: meta.deadline };
    const answer = await inSpan(
      'pp-bus',
      `bus ${pattern}`,
      { kind: SpanKind.SERVER, attributes: { 'messaging.system': 'nats', 'messaging.destination.name': pattern } },
      async () => {
        const result = await requestContext.run(ctx, () => this.invoke(pattern, handler, msg, meta));
        // A refusal (validation, not found, conflict) is an answer; only a fault marks the span failed.
        if (!result.ok && result.error.code === ErrorCode.Internal) trace.getActiveSpan()?.setStatus({ code: SpanStatusCode.ERROR });
        return result;
      },
      meta.traceContext,
    );
    const sent = this.respond(pattern, msg, answer);
    this.options.metrics.answered(pattern, busOutcome(sent), performance.now() - started);
  }

  /** Sends the answer, or when it cannot be sent as it is (too large, not serialisable), a fault: the caller need not wait out its deadline. */
  private respond(pattern: string, msg: Msg, answer: BusReply<unknown>): BusReply<unknown> {
    try {
      msg.respond(Buffer.from(JSON.stringify(answer)));
      return answer;
    } catch (error) {
      this.logger.error(`the answer on ${pattern} could not be sent`, error instanceof Error ? error : String(error));
      msg.respond(Buffer.from(JSON.stringify(UNSENDABLE))); // a closed connection throws again: answer() logs it
      return UNSENDABLE;
    }
  }

  private async invoke(
    pattern: string,
    handler: MessageHandler,
    msg: Msg,
    meta: IncomingMeta,
  ): Promise<BusReply<unknown>> {
    let payload: unknown;
    try {
      payload = msg.data.length > 0 ? JSON.parse(Buffer.from(msg.data).toString('utf8')) : {};
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

/** Errors reach here already shaped by BusExceptionFilter; anything else is internal. */
function toWireError(error: unknown): WireError {
  if (error instanceof DomainError) return error.toWire();
  if (isWireError(error)) return error;
  return { code: ErrorCode.Internal, message: 'Internal error' };
}
