import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimulatedOutcome } from '@pp/contracts';
import { freePorts, TestStack } from '@pp/testing';

export interface Merchant {
  merchant_id: string;
  keys: { live_secret: string; test_secret: string; live_publishable: string; test_publishable: string };
  etransfer_email: string;
}

/**
 * gateway + sessions + ledger + checkout, with the checkout and gateway on
 * ports chosen up front so CHECKOUT_URL_BASE, SDK_URL and GATEWAY_URL are
 * known to every service from the start.
 */
export class CheckoutTestStack {
  private constructor(
    readonly stack: TestStack,
    readonly checkoutUrl: string,
  ) {}

  static async start(label: string, env: Record<string, string> = {}): Promise<CheckoutTestStack> {
    const [checkoutPort, gatewayPort] = await freePorts(2);
    const checkoutUrl = `http://localhost:${checkoutPort}`;
    const stack = await TestStack.start({
      label,
      services: ['gateway', 'sessions', 'ledger', 'checkout'],
      env: {
        CHECKOUT_PORT: String(checkoutPort),
        CHECKOUT_URL_BASE: checkoutUrl,
        SDK_URL: checkoutUrl,
        GATEWAY_PORT: String(gatewayPort),
        GATEWAY_URL: `http://127.0.0.1:${gatewayPort}`,
        ...env,
      },
    });
    return new CheckoutTestStack(stack, checkoutUrl);
  }

  async api<T = unknown>(path: string, options: { method?: string; token?: string; body?: unknown } = {}): Promise<{ status: number; body: T }> {
    const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
    const response = await fetch(`${this.stack.url('gateway')}${path}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  /** A merchant whose deposit address (unique across merchants) is `etransfer_email`. */
  async createMerchant(name: string, changes: { frame_ancestors?: string[] } = {}, etransfer_email = `pay-${randomUUID()}@shop.example.com`): Promise<Merchant> {
    const admin = this.stack.env.ADMIN_TOKEN;
    const created = await this.api<Omit<Merchant, 'etransfer_email'>>('/v1/admin/merchants', {
      token: admin,
      body: { name, email: `${randomUUID()}@example.com`, etransfer_email },
    });
    if (created.status !== 201) throw new Error(`merchant not created: ${JSON.stringify(created.body)}`);
    if (changes.frame_ancestors) {
      const patched = await this.api(`/v1/admin/merchants/${created.body.merchant_id}`, { method: 'PATCH', token: admin, body: changes });
      if (patched.status !== 200) throw new Error(`merchant not updated: ${JSON.stringify(patched.body)}`);
    }
    return { ...created.body, etransfer_email };
  }

  async createSession(
    secretKey: string,
    urls: { success_url: string; cancel_url: string },
    amount = 2500,
  ): Promise<{ id: string; checkout_url: string; client_secret: string; memo: string; livemode: boolean; expires_at: string }> {
    const created = await this.api<{ id: string; checkout_url: string; client_secret: string; memo: string; livemode: boolean; expires_at: string }>('/v1/checkout/sessions', {
      token: secretKey,
      body: { amount, currency: 'cad', reference: `order-${randomUUID()}`, ...urls, metadata: { secret_note: 'never shown' } },
    });
    if (created.status !== 201) throw new Error(`session not created: ${JSON.stringify(created.body)}`);
    return created.body;
  }

  /** A test session's payment, as merchants simulate it (docs/PRODUCT-RULES.md §4.6): the gateway's route, with a test secret key. */
  async simulatePayment(testSecretKey: string, sessionId: string, outcome: SimulatedOutcome): Promise<{ transaction: { status: string }; session: { status: string } }> {
    const simulated = await this.api<{ transaction: { status: string }; session: { status: string } }>('/v1/sandbox/simulate-payment', {
      token: testSecretKey,
      body: { sessionId, outcome },
    });
    if (simulated.status !== 200) throw new Error(`payment not simulated: ${simulated.status} ${JSON.stringify(simulated.body)}`);
    return simulated.body;
  }

  /** Changes one variable and restarts one service (e.g. a short SESSION_TTL_SECONDS for the expiry test). */
  async restartWith(service: 'sessions', env: Record<string, string>): Promise<void> {
    Object.assign(this.stack.env, env);
    await this.stack.stopService(service);
    await this.stack.startService(service);
  }

  async stop(): Promise<void> {
    await this.stack.stop();
  }
}

/** A tiny merchant web site on its own origin: success/cancel pages and the page that embeds checkout. */
export class MerchantSite {
  private constructor(
    private readonly server: Server,
    readonly origin: string,
  ) {}

  static async start(host: string, pages: Record<string, (url: URL) => string>): Promise<MerchantSite> {
    let origin = '';
    const server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', origin);
      const page = Object.hasOwn(pages, url.pathname) ? pages[url.pathname] : undefined;
      response.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' });
      response.end(page ? page(url) : 'not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://${host}:${(server.address() as AddressInfo).port}`;
    return new MerchantSite(server, origin);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
