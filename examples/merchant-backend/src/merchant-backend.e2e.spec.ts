import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { WebhookHeader, webhooks } from '@interac-checkout/node';
import { TestStack, waitFor } from '@pp/testing';
import { createMerchantServer } from './merchant-server';
import type { Order, OrderBook } from './orders';

/*
 * The example as its README runs it: a merchant backend takes an order and
 * sends the payer to the hosted page; the CLI's `listen` forwards the test
 * events to it, signed with the secret `listen --print-secret` gives; `trigger
 * --session` pays that order's session, and the backend marks the order paid
 * from the verified webhook alone.
 */

const CLI = join(__dirname, '..', '..', '..', 'dist', 'libs', 'sdk', 'src', 'cli', 'main.js');

describe('examples/merchant-backend with the CLI against the real stack', () => {
  let stack: TestStack;
  let env: NodeJS.ProcessEnv;
  let backend: Server;
  let orders: OrderBook;
  let backendUrl: string;
  let apiKey: string;
  let secret: string;
  let listener: ChildProcess | undefined;
  let listenProgress = '';
  const log: string[] = [];

  const cli = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...args], { env, timeout: 30_000 });
    return stdout.trim();
  };

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'ledger'], label: 'example', env: { RATE_LIMIT_TEST_PER_SECOND: '5000' } });
    await stack.startService('sessions');
    const response = await fetch(`${stack.url('gateway')}/v1/admin/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.env.ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ name: 'Example shop', email: `${randomUUID()}@example.com` }),
    });
    const { keys } = (await response.json()) as { keys: { test_secret: string } };
    apiKey = keys.test_secret;
    env = { PATH: process.env.PATH, PP_CONFIG_FILE: join(mkdtempSync(join(tmpdir(), 'pp-example-')), 'config.json'), PP_API_BASE: stack.url('gateway') };

    // The README's three commands: log in, print the forwarding secret, listen.
    await cli('login', '--key', apiKey);
    secret = await cli('listen', '--print-secret');
    ({ server: backend, orders } = createMerchantServer({
      apiKey,
      apiBase: stack.url('gateway'),
      publicUrl: 'http://localhost:4000',
      webhookSecrets: [secret],
      log: (line) => log.push(line),
    }));
    await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
    backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
    listener = spawn(process.execPath, [CLI, 'listen', '--forward-to', `${backendUrl}/webhooks`, '--interval', '200'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    listener.stderr!.on('data', (chunk: Buffer) => (listenProgress += chunk.toString()));
    await waitFor('listen to be ready', () => listenProgress.includes('Ready.'));
  }, 180_000);

  afterAll(async () => {
    listener?.kill('SIGTERM');
    backend?.closeAllConnections();
    await new Promise((resolve) => backend?.close(resolve));
    await stack?.stop();
  });

  const placeOrder = async (amount: number) => {
    const answer = await fetch(`${backendUrl}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ item: 'Mug', amount }), redirect: 'manual' });
    expect({ status: answer.status, log: answer.status === 303 ? [] : log }).toEqual({ status: 303, log: [] });
    const order = orders.get(answer.headers.get('x-order-id')!)!;
    return { answer, order };
  };
  const orderOf = async (id: string) => (await (await fetch(`${backendUrl}/orders/${id}`)).json()) as Order;

  it('sends the payer to the hosted page of a new session for the order', async () => {
    const { answer, order } = await placeOrder(1999);
    expect(answer.headers.get('location')).toMatch(new RegExp(`/checkout/${order.session_id}$|${order.session_id}`));
    const session = JSON.parse(await cli('sessions', 'get', order.session_id, '--json')) as { reference: string; amount: number; status: string };
    expect(session).toMatchObject({ reference: order.id, amount: 1999, status: 'PENDING' });
    expect(await orderOf(order.id)).toMatchObject({ status: 'awaiting_payment' });
  });

  it('marks the order paid from the verified payment.confirmed that `trigger --session` causes', async () => {
    const { order } = await placeOrder(2500);
    const paid = JSON.parse(await cli('trigger', 'payment.confirmed', '--session', order.session_id, '--json')) as { payment_id: string; amount: number };
    expect(paid.amount).toBe(2500);
    await waitFor('the order to be paid', async () => (await orderOf(order.id)).status === 'paid', { timeoutMs: 20_000 });
    expect(await orderOf(order.id)).toMatchObject({ status: 'paid', payment_id: paid.payment_id });
    expect(log).not.toContainEqual(expect.stringMatching(/webhook refused/));
  });

  it('marks an unpaid order expired', async () => {
    const { order } = await placeOrder(700);
    await cli('trigger', 'checkout.session.expired', '--session', order.session_id);
    await waitFor('the order to expire', async () => (await orderOf(order.id)).status === 'expired', { timeoutMs: 20_000 });
  });

  it('refuses a delivery signed with another secret, for its signature', async () => {
    const { order } = await placeOrder(800);
    // Every header present and well formed, so only the secret can be what fails.
    const event = { id: `evt_${randomUUID()}`, type: 'payment.confirmed', data: { reference: order.id, amount: 800, payment_id: 'txn_forged' } };
    const forged = webhooks.signTestPayload(event, `whsec_${randomUUID().replace(/-/g, '')}`);
    const answer = await fetch(`${backendUrl}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', ...forged.headers }, body: forged.body });
    expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 400, body: { error: expect.stringContaining(`${WebhookHeader.SignatureV2} matches none of the 1 secret(s)`) } });
    expect(await orderOf(order.id)).toMatchObject({ status: 'awaiting_payment' });
  });

  it('answers 400 to malformed JSON and 413 to a body over 64 KiB on either route', async () => {
    const post = async (path: string, body: string) => {
      const answer = await fetch(`${backendUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      return { status: answer.status, body: await answer.json() };
    };
    const tooLarge = 'x'.repeat(64 * 1024 + 1);
    expect(await post('/orders', '{"amount":')).toEqual({ status: 400, body: { error: 'The body is not valid JSON' } });
    expect(await post('/orders', tooLarge)).toEqual({ status: 413, body: { error: 'The request body is over 64 KiB' } });
    expect(await post('/webhooks', tooLarge)).toEqual({ status: 413, body: { error: 'The request body is over 64 KiB' } });
  });

  it('keeps no order when its session cannot be created, and a retry makes a new one', async () => {
    // The gateway behind a stand-in that answers 503 to session creation until told otherwise.
    const refused: string[] = [];
    let failing = true;
    const gateway = new URL(stack.url('gateway'));
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (failing && req.url === '/v1/checkout/sessions') {
          refused.push((JSON.parse(body.toString('utf8')) as { reference: string }).reference);
          res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"Service unavailable"}');
          return;
        }
        const upstream = request({ host: gateway.hostname, port: gateway.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        });
        upstream.end(body);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const shop = createMerchantServer({
      apiKey,
      apiBase: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      publicUrl: 'http://localhost:4000',
      webhookSecrets: [secret],
      log: () => undefined,
    });
    await new Promise<void>((resolve) => shop.server.listen(0, '127.0.0.1', resolve));
    const shopUrl = `http://127.0.0.1:${(shop.server.address() as AddressInfo).port}`;
    const placeOrderAtShop = () =>
      fetch(`${shopUrl}/orders`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: 900 }), redirect: 'manual' });
    try {
      const failed = await placeOrderAtShop();
      expect(failed.status).toBe(502);
      expect(refused.length).toBeGreaterThan(0);
      expect(shop.orders.get(refused[0])).toBeUndefined();

      failing = false;
      const retried = await placeOrderAtShop();
      expect(retried.status).toBe(303);
      const order = shop.orders.get(retried.headers.get('x-order-id')!)!;
      expect(order).toMatchObject({ amount: 900, status: 'awaiting_payment' });
      expect(order.id).not.toBe(refused[0]);
      const session = JSON.parse(await cli('sessions', 'get', order.session_id, '--json')) as { reference: string; status: string };
      expect(session).toMatchObject({ reference: order.id, status: 'PENDING' });
    } finally {
      shop.server.closeAllConnections();
      proxy.closeAllConnections();
      await new Promise((resolve) => shop.server.close(resolve));
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
