import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestStack, WebhookReceiver, waitFor } from '@pp/testing';

/*
 * Each delivery attempt's span links to the trace of the request
 * that caused the event. A caller sends its own W3C traceparent to the
 * gateway; the spans every service exports (OTLP/HTTP JSON, to a collector in
 * this test) must show the gateway continuing that trace and the webhook
 * attempt linking back to it while starting a trace of its own.
 */

interface ExportedSpan {
  service: string;
  name: string;
  traceId: string;
  links: { traceId: string }[];
}

/** The smallest OTLP/HTTP collector: remembers every span it is sent. */
async function startCollector(): Promise<{ url: string; spans: ExportedSpan[]; server: Server }> {
  const spans: ExportedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      for (const resourceSpans of body.resourceSpans ?? []) {
        const service = resourceSpans.resource?.attributes?.find((a: { key: string }) => a.key === 'service.name')?.value?.stringValue;
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) spans.push({ service, name: span.name, traceId: span.traceId, links: span.links ?? [] });
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, server };
}

describe('trace context from the request to the webhook attempt', () => {
  let stack: TestStack;
  let receiver: WebhookReceiver;
  let collector: Awaited<ReturnType<typeof startCollector>>;

  beforeAll(async () => {
    [collector, receiver] = await Promise.all([startCollector(), WebhookReceiver.start()]);
    stack = await TestStack.start({
      services: ['gateway', 'sessions', 'ledger', 'webhooks'],
      label: 'trace',
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
    collector?.server.close();
  });

  const api = async <T>(path: string, token: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> => {
    const response = await fetch(`${stack.url('gateway')}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': randomUUID(), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as T;
  };

  it('links the attempt span to the trace of the simulate-payment request', async () => {
    const merchant = await api<{ keys: { test_secret: string } }>('/v1/admin/merchants', stack.env.ADMIN_TOKEN, { name: 'Traced', email: `${randomUUID()}@example.com` });
    const key = merchant.keys.test_secret as string;
    const endpoint = await api<{ secret: string }>('/v1/webhook_endpoints', key, { url: receiver.url('/traced'), enabled_events: ['payment.confirmed'] });
    receiver.trust('/traced', endpoint.secret);
    const session = await api<{ id: string }>('/v1/checkout/sessions', key, {
      amount: 1500,
      currency: 'cad',
      reference: 'traced-order',
      success_url: 'https://shop.example/ok',
      cancel_url: 'https://shop.example/cancel',
    });

    const traceId = randomBytes(16).toString('hex');
    const traceparent = `00-${traceId}-${randomBytes(8).toString('hex')}-01`;
    const simulated = await api<{ transaction: { status: string } }>('/v1/sandbox/simulate-payment', key, { sessionId: session.id, outcome: 'confirmed' }, { traceparent });
    expect(simulated.transaction.status).toBe('CONFIRMED');
    await waitFor('the payment.confirmed delivery', () => receiver.received('/traced').length > 0, { timeoutMs: 20_000 });

    const attempt = await waitFor(
      'the exported attempt span',
      () => collector.spans.find((span) => span.service === 'webhooks' && span.name === 'webhook payment.confirmed'),
      { timeoutMs: 20_000 },
    );
    expect(attempt.links.map((link) => link.traceId)).toEqual([traceId]);
    expect(attempt.traceId).not.toBe(traceId); // a link, not a parent: retries days later do not grow the request's trace
    const gatewaySpan = await waitFor('the gateway request span', () =>
      collector.spans.find((span) => span.service === 'gateway' && span.name === 'HTTP POST /v1/sandbox/simulate-payment'),
    );
    expect(gatewaySpan.traceId).toBe(traceId);
  });
});
