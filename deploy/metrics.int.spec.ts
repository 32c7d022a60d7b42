import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NAMES, type ServiceName } from '@pp/contracts';
import { METRIC_CATALOG } from '@pp/platform';
import { k8sDir, yamlDocuments } from './testing/manifests';
import { buildNotice, sampleSum, type Scrape, scrape, startTogether, TestStack, waitFor, WebhookReceiver } from '@pp/testing';

/*
 * Every service's GET /metrics after one payment went through the real stack
 * (session, simulated payment, webhook, refund) and two e-mails reached the
 * ingest: the series moved where the work happened, every pp_ metric of the
 * catalog is registered somewhere, and no label value names an entity.
 */

/** Label values that would name one entity: ids (ours and CUID2 session ids), UUIDs, addresses, URLs. */
const ENTITY = /\b(cs|evt|txn|rf|wh|em|mer|key|sk|pk|whsec)_[A-Za-z0-9]+|[a-z0-9]{24,}|[0-9a-f]{8}-[0-9a-f]{4}-|@|https?:|PP-[A-Z0-9]{6}/;

describe('metrics of every service over one payment', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  const scrapes = {} as Record<ServiceName, Scrape>;
  const seen: string[] = [];

  const call = async (path: string, token: string, body?: unknown, contentType = 'application/json') => {
    const response = await fetch(`${stack.url('gateway')}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': contentType, 'idempotency-key': randomUUID() }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as Record<string, unknown> & { id: string };
  };

  beforeAll(async () => {
    [stack, receiver] = await startTogether([TestStack.start({ services: SERVICE_NAMES, label: 'metrics' }), WebhookReceiver.start()]);
    const admin = stack.env.ADMIN_TOKEN;
    const merchant = (await call('/v1/admin/merchants', admin, { name: 'Metrics', email: `${randomUUID()}@example.com` })) as unknown as {
      merchant_id: string;
      keys: { test_secret: string };
    };
    const key = merchant.keys.test_secret;
    const endpoint = await call('/v1/webhook_endpoints', key, { url: receiver.url('/hooks'), enabled_events: ['payment.confirmed'] });
    receiver.trust('/hooks', endpoint.secret as string);
    const reference = `order-${randomUUID()}`;
    const session = await call('/v1/checkout/sessions', key, {
      amount: 2500,
      currency: 'cad',
      reference,
      success_url: 'https://shop.example/ok',
      cancel_url: 'https://shop.example/cancel',
    });
    const { transaction } = (await call('/v1/sandbox/simulate-payment', key, { sessionId: session.id, outcome: 'confirmed' })) as unknown as { transaction: { id: string } };
    await call('/v1/refunds', key, { payment_id: transaction.id });
    await waitFor('the payment.confirmed webhook', () => receiver.received('/hooks').some((hook) => hook.verification.valid));
    // Mail that no signature vouches for, twice: processed once (unauthenticated), then recognised as a copy.
    const mail = buildNotice({ messageId: `<m.${stack.namespace}@payments.interac.ca>`, to: 'nobody@deposits.example' });
    for (let i = 0; i < 2; i++) await call('/v1/internal/ingest-email', stack.env.INGEST_TOKEN, mail, 'message/rfc822');
    await fetch(`${stack.url('checkout')}/v1/checkout.js`);
    await fetch(`${stack.url('dashboard')}/api/auth/session`);
    seen.push(merchant.merchant_id, session.id, transaction.id, endpoint.id, reference, stack.namespace);

    // Counters move as the work finishes (the webhook's attempt is recorded after it answered; ingest processes after storing).
    await waitFor(
      'the webhook attempt and both e-mails in the metrics',
      async () => {
        const [webhooks, ingest] = await Promise.all([scrape(stack.metricsUrl('webhooks')), scrape(stack.metricsUrl('ingest'))]);
        return sampleSum(webhooks, 'pp_webhook_attempts_total', { outcome: 'success' }) >= 1 && sampleSum(ingest, 'pp_ingest_messages_total') >= 2;
      },
      { timeoutMs: 20_000, intervalMs: 200 },
    );
    await Promise.all(SERVICE_NAMES.map(async (service) => (scrapes[service] = await scrape(stack.metricsUrl(service)))));
  });

  afterAll(async () => {
    await receiver?.close();
    await stack?.stop();
  });

  it.each(SERVICE_NAMES)('%s answers with process metrics and the bus series, every sample labelled with the service', (service) => {
    const { samples, declared } = scrapes[service];
    expect(sampleSum(scrapes[service], 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(sampleSum(scrapes[service], 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // The series the ServiceAbsent alert watches for (deploy/prometheus/alerts.yml).
    expect(sampleSum(scrapes[service], 'process_start_time_seconds')).toBeGreaterThan(0);
    for (const name of ['pp_bus_requests_total', 'pp_bus_client_requests_total']) expect(declared).toContain(name);
    expect(samples.filter((sample) => sample.labels.service !== service)).toEqual([]);
  });

  it('counts HTTP requests by route template on the web apps', () => {
    expect(sampleSum(scrapes.gateway, 'pp_http_requests_total', { route: '/v1/checkout/sessions', method: 'POST', status: '201' })).toBe(1);
    expect(sampleSum(scrapes.gateway, 'pp_http_requests_total', { route: '/v1/sandbox/simulate-payment', status: '200' })).toBe(1);
    expect(sampleSum(scrapes.gateway, 'pp_http_request_duration_seconds_count', { route: '/v1/webhook_endpoints', method: 'POST' })).toBe(1);
    expect(sampleSum(scrapes.checkout, 'pp_http_requests_total', { route: '/v1/checkout.js', method: 'GET', status: '200' })).toBe(1);
    expect(sampleSum(scrapes.dashboard, 'pp_http_requests_total', { route: '/api/auth/session', method: 'GET', status: '401' })).toBe(1);
  });

  it('counts bus requests where they are served and where they are sent', () => {
    expect(sampleSum(scrapes.sessions, 'pp_bus_requests_total', { subject: 'sessions.create.v1', outcome: 'ok' })).toBe(1);
    expect(sampleSum(scrapes.gateway, 'pp_bus_client_requests_total', { subject: 'sessions.create.v1', outcome: 'ok' })).toBe(1);
    expect(sampleSum(scrapes.refunds, 'pp_bus_requests_total', { subject: 'refunds.request.v1', outcome: 'ok' })).toBe(1);
    // The payment appends through the sessions' subject, the refund through the refunds' own.
    expect(sampleSum(scrapes.ledger, 'pp_bus_request_duration_seconds_count', { subject: 'ledger.append-streams.v1' })).toBeGreaterThanOrEqual(1);
    expect(sampleSum(scrapes.ledger, 'pp_bus_request_duration_seconds_count', { subject: 'ledger.append-refund-streams.v1' })).toBeGreaterThanOrEqual(1);
  });

  it('counts each service’s messages on NATS, both ways', () => {
    for (const service of SERVICE_NAMES) expect([service, scrapes[service].declared.has('pp_nats_messages_total')]).toEqual([service, true]);
    // The services this test's payment, refund and e-mails went through, each of which both asked and answered.
    for (const service of ['gateway', 'sessions', 'ledger', 'refunds', 'ingest', 'webhooks'] as const) {
      for (const direction of ['sent', 'received']) {
        expect([service, direction, sampleSum(scrapes[service], 'pp_nats_messages_total', { direction }) > 0]).toEqual([service, direction, true]);
      }
    }
    // Every bus request the gateway sent went out as a message of its own, and came back as a reply.
    const gatewayRequests = sampleSum(scrapes.gateway, 'pp_bus_client_requests_total');
    expect(sampleSum(scrapes.gateway, 'pp_nats_messages_total', { direction: 'sent' })).toBeGreaterThanOrEqual(gatewayRequests);
  });

  it('counts the facts the ledger committed, its group commits and the publication lag', () => {
    for (const type of ['session.created', 'session.completed', 'payment.confirmed', 'refund.requested', 'refund.completed', 'payment.refunded']) {
      expect([type, sampleSum(scrapes.ledger, 'pp_ledger_events_total', { type })]).toEqual([type, 1]);
    }
    expect(sampleSum(scrapes.ledger, 'pp_ledger_group_commit_batch_size_count')).toBeGreaterThanOrEqual(3);
    expect(sampleSum(scrapes.ledger, 'pp_ledger_append_duration_seconds_count')).toBeGreaterThanOrEqual(3);
    expect(scrapes.ledger.samples.find((sample) => sample.name === 'pp_publication_lag_positions')?.value).toBeGreaterThanOrEqual(0);
    expect(scrapes.ledger.samples.filter((sample) => sample.name === 'pp_payments_awaiting_review').map((sample) => sample.labels.mode).sort()).toEqual(['live', 'test']);
    // The stack's only refund is a test one, completed at once: no live refund waits in any stage.
    expect(scrapes.ledger.samples.filter((sample) => sample.name === 'pp_refunds_open').map((sample) => [sample.labels.stage, sample.value])).toEqual([
      ['REQUESTED', 0],
      ['APPROVED', 0],
      ['SENT', 0],
    ]);
  });

  it('reads queue depth and consumer lag at the scrape', () => {
    expect(scrapes.sessions.samples.filter((sample) => sample.name === 'pp_queue_jobs').map((sample) => sample.labels.state).sort()).toEqual(['active', 'delayed', 'failed', 'waiting']);
    expect(scrapes.webhooks.samples.filter((sample) => sample.name === 'pp_queue_jobs').map((sample) => sample.labels.queue)).toContain('webhook-delivery');
    const lag = (service: ServiceName) => scrapes[service].samples.filter((sample) => sample.name === 'pp_jetstream_consumer_pending').map((sample) => sample.labels);
    expect(lag('webhooks')).toEqual([{ stream: 'LEDGER_EVENTS', consumer: 'webhooks-delivery', service: 'webhooks' }]);
    expect(lag('ingest')).toEqual([{ stream: 'INGEST_EMAIL', consumer: 'ingest', service: 'ingest' }]);
  });

  it('counts the webhook attempt and the e-mails by outcome', () => {
    expect(sampleSum(scrapes.webhooks, 'pp_webhook_attempts_total', { outcome: 'success', response: '2xx' })).toBe(1);
    expect(sampleSum(scrapes.webhooks, 'pp_webhook_attempt_duration_seconds_count')).toBe(1);
    expect(sampleSum(scrapes.ingest, 'pp_ingest_messages_total', { outcome: 'duplicate' })).toBe(1);
    expect(sampleSum(scrapes.ingest, 'pp_ingest_messages_total')).toBe(2);
    expect(sampleSum(scrapes.ingest, 'pp_ingest_authentication_failures_total', { reason: 'dkim_missing' })).toBe(1);
  });

  it('registers every metric of the catalog, and no pp_ metric outside it', () => {
    const declared = new Set(SERVICE_NAMES.flatMap((service) => [...scrapes[service].declared]).filter((name) => name.startsWith('pp_')));
    expect([...declared].sort()).toEqual(METRIC_CATALOG.map((metric) => metric.name).sort());
  });

  it('never puts an id, an address or a URL in a label value', () => {
    const values = new Set(SERVICE_NAMES.flatMap((service) => scrapes[service].samples.flatMap((sample) => Object.values(sample.labels))));
    expect([...values].filter((value) => ENTITY.test(value) || seen.some((id) => value.includes(id)))).toEqual([]);
    // The rule itself catches such values.
    expect(seen.filter((id) => ENTITY.test(id) || id === stack.namespace)).toHaveLength(seen.length);
  });

  it('answers every HTTP probe path the Kubernetes manifests give the web apps with 200', async () => {
    for (const service of ['gateway', 'checkout', 'dashboard'] as const) {
      const deployment = yamlDocuments(readFileSync(join(k8sDir, 'base', `${service}.yaml`), 'utf8')).find((doc) => doc.kind === 'Deployment')!;
      const container = deployment.spec.template.spec.containers[0];
      const paths = [...new Set(['livenessProbe', 'readinessProbe', 'startupProbe'].map((probe) => container[probe]?.httpGet?.path as string | undefined))].sort();
      expect({ service, paths }).toEqual({ service, paths: ['/healthz', '/healthz/ready'] });
      const alive = await fetch(`${stack.url(service)}/healthz`);
      expect({ service, status: alive.status, body: await alive.json() }).toEqual({ service, status: 200, body: { status: 'ok' } });
      const ready = await fetch(`${stack.url(service)}/healthz/ready`);
      expect({ service, status: ready.status, body: await ready.json() }).toEqual({ service, status: 200, body: { status: 'up' } });
    }
  });
});
