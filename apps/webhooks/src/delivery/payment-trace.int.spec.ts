import { randomBytes, randomUUID } from 'node:crypto';
import { type CollectedSpan, OtlpCollector, OtlpSpanKind, TestStack, WebhookReceiver, waitFor } from '@pp/testing';

/*
 * One trace per payment (docs/ARCHITECTURE.md, Tracing). A merchant backend
 * that traces its checkout sends one W3C trace id with the session's creation
 * and with the payment; every service exports its spans (OTLP/HTTP JSON) to
 * a collector in this test, and the whole tree must be in that one trace:
 * gateway request spans, NATS client and server spans, the ledger append
 * with its Postgres queries, the JetStream publication and consumption, and
 * the first webhook attempt with its HTTP request to the receiver. The retry
 * that follows a failed first attempt starts a trace of its own, linked to
 * the append and to the attempt before it.
 */

const isPostgres = (span: CollectedSpan) => span.attributes['db.system'] === 'postgresql' || span.attributes['db.system.name'] === 'postgresql';
const isRedis = (span: CollectedSpan) => span.attributes['db.system'] === 'redis' || span.attributes['db.system.name'] === 'redis';
const statusOf = (span: CollectedSpan) => span.attributes['http.response.status_code'] ?? span.attributes['http.status_code'];

describe('one trace per payment: create → simulate → webhook', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let collector: OtlpCollector;

  beforeAll(async () => {
    [collector, receiver] = await Promise.all([OtlpCollector.start(), WebhookReceiver.start()]);
    stack = await TestStack.start({
      services: ['gateway', 'sessions', 'ledger', 'webhooks'],
      label: 'trace',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '100', WEBHOOK_RETRY_SCHEDULE: '0,1' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    await collector?.close();
  });

  const api = async <T>(path: string, token: string, body: unknown, headers: Record<string, string> = {}): Promise<T> => {
    const response = await fetch(`${stack.url('gateway')}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...headers },
      body: JSON.stringify(body),
    });
    expect(response.ok).toBe(true);
    return (await response.json()) as T;
  };

  it('holds the requests, every bus hop, the append, JetStream and the first attempt in the caller’s trace; the retry links back', async () => {
    const merchant = await api<{ keys: { test_secret: string } }>('/v1/admin/merchants', stack.env.ADMIN_TOKEN, { name: 'Traced', email: `${randomUUID()}@example.com` });
    const key = merchant.keys.test_secret;
    const endpoint = await api<{ secret: string }>('/v1/webhook_endpoints', key, { url: receiver.url('/traced'), enabled_events: ['payment.confirmed'] });
    receiver.trust('/traced', endpoint.secret);
    receiver.script('/traced', [{ status: 500 }]); // the first attempt fails, the retry (1 s later) succeeds

    const traceId = randomBytes(16).toString('hex');
    const callerSpan = () => randomBytes(8).toString('hex');
    const [createdBy, simulatedBy] = [callerSpan(), callerSpan()];
    const session = await api<{ id: string }>(
      '/v1/checkout/sessions',
      key,
      { amount: 1500, currency: 'cad', reference: 'traced-order', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/cancel' },
      { traceparent: `00-${traceId}-${createdBy}-01` },
    );
    await api('/v1/sandbox/simulate-payment', key, { sessionId: session.id, outcome: 'confirmed' }, { traceparent: `00-${traceId}-${simulatedBy}-01` });
    await waitFor('the retried delivery', () => receiver.received('/traced').some((hit) => hit.answeredStatus === 200), { timeoutMs: 20_000 });

    // Spans arrive in batches per service; wait until the last ones of the tree are in.
    const attemptName = 'webhook payment.confirmed';
    const attempts = await waitFor('both attempt spans', () => {
      const found = collector.spans.filter((span) => span.service === 'webhooks' && span.name === attemptName);
      return found.length === 2 && found.every((attempt) => collector.spans.some((span) => span.parentSpanId === attempt.spanId)) && found;
    }, { timeoutMs: 20_000 });
    const spans = collector.trace(traceId);

    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const parentOf = (span: CollectedSpan) => byId.get(span.parentSpanId);
    const isUnder = (span: CollectedSpan, ancestor: CollectedSpan): boolean => {
      for (let at = parentOf(span); at; at = parentOf(at)) if (at.spanId === ancestor.spanId) return true;
      return false;
    };
    const one = (description: string, match: (span: CollectedSpan) => boolean, among = spans): CollectedSpan => {
      const found = among.filter(match);
      if (found.length !== 1) throw new Error(`expected one ${description} in the trace, found ${found.length}: ${spans.map((s) => `${s.service}/${s.name}`).join(', ')}`);
      return found[0];
    };
    const childOf = (parent: CollectedSpan, service: string, name: string, kind: OtlpSpanKind) =>
      one(`${service} ${name} under ${parent.name}`, (span) => span.parentSpanId === parent.spanId && span.service === service && span.name === name && span.kind === kind);
    /** A request's path through gateway → sessions → ledger: each hop's client span, then its server span. */
    const busHop = (parent: CollectedSpan, caller: string, callee: string, subject: string) => {
      const client = one(`${caller} → ${subject}`, (span) => span.service === caller && span.name === `bus ${subject}` && span.kind === OtlpSpanKind.Client && isUnder(span, parent));
      return childOf(client, callee, `bus ${subject}`, OtlpSpanKind.Server);
    };

    // Creation: the gateway continues the caller's trace; sessions asks the ledger to append, and queues nothing (a sweep expires sessions).
    const create = one('create request', (span) => span.service === 'gateway' && span.name === 'HTTP POST /v1/checkout/sessions');
    expect({ kind: create.kind, parent: create.parentSpanId, status: create.attributes['http.response.status_code'] }).toEqual({ kind: OtlpSpanKind.Server, parent: createdBy, status: 201 });
    const sessionsCreate = busHop(create, 'gateway', 'sessions', 'sessions.create.v1');
    const createAppend = childOf(busHop(sessionsCreate, 'sessions', 'ledger', 'ledger.append.v1'), 'ledger', 'ledger append', OtlpSpanKind.Internal);
    expect(spans.some((span) => isPostgres(span) && span.service === 'ledger' && isUnder(span, createAppend))).toBe(true);
    expect(spans.some((span) => isRedis(span) && span.service === 'sessions' && isUnder(span, sessionsCreate))).toBe(false); // no job per session
    expect(spans.some((span) => isRedis(span) && span.service === 'gateway' && isUnder(span, create))).toBe(true); // idempotency, rate limit

    // The payment: one atomic append of the payment and the session's completion.
    const simulate = one('simulate request', (span) => span.service === 'gateway' && span.name === 'HTTP POST /v1/sandbox/simulate-payment');
    expect({ kind: simulate.kind, parent: simulate.parentSpanId }).toEqual({ kind: OtlpSpanKind.Server, parent: simulatedBy });
    const sessionsSimulate = busHop(simulate, 'gateway', 'sessions', 'payments.simulate.v1');
    const paymentAppend = childOf(busHop(sessionsSimulate, 'sessions', 'ledger', 'ledger.append-streams.v1'), 'ledger', 'ledger append', OtlpSpanKind.Internal);
    expect(spans.some((span) => isPostgres(span) && span.service === 'ledger' && isUnder(span, paymentAppend))).toBe(true);

    // Publication is a child of the append that stored the event (from its metadata), consumption of the publication.
    const subject = `${stack.namespace}.ledger.events.merchant.payment.confirmed`;
    const publish = childOf(paymentAppend, 'ledger', `publish ${subject}`, OtlpSpanKind.Producer);
    const consume = childOf(publish, 'webhooks', `consume ${subject}`, OtlpSpanKind.Consumer);
    expect(spans.some((span) => isPostgres(span) && span.service === 'webhooks' && isUnder(span, consume))).toBe(true); // deliveries recorded

    // The first attempt is a child of the consumption; its HTTP request to the receiver is its child.
    const first = childOf(consume, 'webhooks', attemptName, OtlpSpanKind.Client);
    expect(first.attributes['webhook.attempt']).toBe(1);
    expect(first.links).toEqual([{ traceId, spanId: paymentAppend.spanId }]);
    const post = one('webhook POST', (span) => span.parentSpanId === first.spanId && span.kind === OtlpSpanKind.Client && span.service === 'webhooks' && !isPostgres(span) && !isRedis(span));
    expect(statusOf(post)).toBe(500);
    // The endpoint's path (which may carry the merchant's token) stays out of the trace: only its origin.
    expect(JSON.stringify(post.attributes)).not.toContain('/traced');
    expect(post.attributes['http.url'] ?? post.attributes['url.full']).toBe(`${new URL(receiver.url('/traced')).origin}/`);
    expect(receiver.received('/traced')[0].headers.traceparent).toMatch(new RegExp(`^00-${traceId}-${post.spanId}-01$`));

    // The retry: a trace of its own, linked to the append and to the first attempt, with its own HTTP request.
    const retry = one('retry span', (span) => span.attributes['webhook.attempt'] === 2, attempts);
    expect(retry.traceId).not.toBe(traceId);
    expect(retry.parentSpanId).toBe('');
    expect(retry.links).toEqual([
      { traceId, spanId: paymentAppend.spanId },
      { traceId, spanId: first.spanId },
    ]);
    const retryPost = one('retry POST', (span) => span.parentSpanId === retry.spanId && span.kind === OtlpSpanKind.Client && !isPostgres(span) && !isRedis(span), collector.trace(retry.traceId));
    expect(statusOf(retryPost)).toBe(200);
  });
});
