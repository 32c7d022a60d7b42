import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { DomainError, ErrorCode, type ReplyOf, type RequestOf, type Subject } from '@pp/contracts';
import { ErrorCode as NatsErrorCode, NatsError, type NatsConnection } from 'nats';
import { callTimeoutMs, requestContext } from '../logging/request-context';
import { busOutcome, type BusMetrics } from '../metrics/bus-metrics';
import type { BusReply } from './bus-envelope';
import { buildHeaders } from './bus-headers';
import { subjectPrefix } from './connect-nats';
import { ReplyInbox } from './reply-inbox';

export interface RequestOptions {
  /** Upper bound for this call; the caller's own deadline, if sooner, wins. */
  timeoutMs?: number;
}

const tracer = trace.getTracer('pp-bus');

/**
 * Typed request-reply over NATS. Every call has a deadline: the smaller of its
 * own timeout and what is left of the request that caused it. A missing or
 * silent service becomes DomainError(SERVICE_UNAVAILABLE), never a hang.
 */
export class BusClient {
  private readonly prefix: string;
  private readonly inbox: ReplyInbox;

  constructor(
    nc: NatsConnection,
    prefix: string,
    private readonly defaultTimeoutMs: number,
    /** A service's own client records what it sends; a test's or a tool's records nothing. */
    private readonly metrics?: BusMetrics,
  ) {
    this.prefix = subjectPrefix(prefix);
    this.inbox = ReplyInbox.of(nc);
  }

  async request<S extends Subject>(subject: S, payload: RequestOf<S>, options: RequestOptions = {}): Promise<ReplyOf<S>> {
    const ctx = requestContext.current();
    const timeout = callTimeoutMs(options.timeoutMs ?? this.defaultTimeoutMs);
    if (timeout <= 0) {
      throw new DomainError(ErrorCode.ServiceUnavailable, `Deadline passed before calling ${subject}`);
    }
    return tracer.startActiveSpan(`bus ${subject}`, { kind: SpanKind.CLIENT }, async (span) => {
      const started = performance.now();
      let outcome = 'ok';
      try {
        const msg = await this.inbox.request(
          this.prefix + subject,
          Buffer.from(JSON.stringify(payload ?? {})),
          buildHeaders({ requestId: ctx?.requestId, timeoutMs: timeout }),
          timeout,
        );
        const reply = JSON.parse(Buffer.from(msg.data).toString('utf8')) as BusReply<ReplyOf<S>>;
        outcome = busOutcome(reply);
        if (reply.ok) return reply.data;
        throw DomainError.fromWire(reply.error);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        const translated = translate(error, subject, timeout);
        if (outcome === 'ok') outcome = translated instanceof DomainError ? translated.code : ErrorCode.Internal;
        throw translated;
      } finally {
        span.end();
        this.metrics?.called(subject, outcome, performance.now() - started);
      }
    });
  }
}

function translate(error: unknown, subject: string, timeout: number): unknown {
  if (error instanceof NatsError) {
    if (error.code === NatsErrorCode.NoResponders) {
      return new DomainError(ErrorCode.ServiceUnavailable, `No service is answering ${subject}`);
    }
    if (error.code === NatsErrorCode.Timeout) {
      return new DomainError(ErrorCode.ServiceUnavailable, `${subject} did not answer within ${timeout} ms`);
    }
    return new DomainError(ErrorCode.ServiceUnavailable, `${subject} failed on the bus: ${error.message}`);
  }
  return error;
}
