import { randomUUID } from 'node:crypto';
import type { ListPage, MerchantEventView, PaymentView } from '@pp/contracts';
import { TestStack, waitFor } from '@pp/testing';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant, signInAsNewUser } from '../testing/dashboard-client';

/*
 * A webhook endpoint's URL may carry a token in its path or query: the dashboard answers it whole only to roles
 * that manage the Developers page, and its origin alone to the rest (a viewer), in every view that shows it —
 * the endpoints, an endpoint's deliveries, an event's and a payment's delivery attempts.
 */
const SECRET_URL = `http://127.0.0.1:9/hooks/tok_${randomUUID().slice(0, 8)}?token=sekret-${randomUUID().slice(0, 8)}`;
const ORIGIN = 'http://127.0.0.1:9';

type WithUrls = { url: string }[];

describe('dashboard: webhook URLs by role', () => {
  let stack: TestStack;
  let merchant: ProvisionedMerchant;
  let owner: DashboardBrowser;
  let endpointId: string;
  let eventId: string;
  let paymentId: string;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'sessions', 'ledger', 'webhooks', 'dashboard'], label: 'dashboard-webhook-urls', env: { DASHBOARD_SECURE_COOKIE: 'false' } });
    const gateway = new GatewayApi(stack);
    merchant = await gateway.createMerchant('Webhook URLs');
    owner = new DashboardBrowser(stack.url('dashboard'));
    expect((await owner.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
    const endpoint = await owner.post<{ id: string }>('/api/developers/webhook-endpoints', { url: SECRET_URL });
    expect(endpoint.status).toBe(201);
    endpointId = endpoint.body.id;

    const session = await gateway.createSession(merchant);
    const simulated = await owner.post<{ transaction: PaymentView }>('/api/sandbox/simulate', { session_id: session.id, outcome: 'confirmed' });
    expect(simulated.status).toBe(200);
    paymentId = simulated.body.transaction.id;
    eventId = (
      await waitFor('the payment.confirmed event', async () => {
        const page = await owner.get<ListPage<MerchantEventView>>('/api/events?type=payment.confirmed');
        return page.body.data.find((row) => row.data.payment_id === paymentId);
      })
    ).id;
    await waitFor('a delivery attempt', async () => (await owner.get<{ deliveries: WithUrls }>(`/api/events/${eventId}`)).body.deliveries.length > 0);
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  });

  /** A user of another role with the owner's password (its hash copied), signed in. */
  function signedInAs(role: string): Promise<DashboardBrowser> {
    return role === 'owner' ? Promise.resolve(owner) : signInAsNewUser(stack, merchant, role);
  }

  /** Every URL the four views answer this browser. */
  async function urlsSeenBy(browser: DashboardBrowser): Promise<Record<string, string[]>> {
    const urls = (rows: WithUrls) => [...new Set(rows.map((row) => row.url))];
    const endpoints = await browser.get<{ endpoints: WithUrls }>('/api/developers/webhook-endpoints');
    const deliveries = await browser.get<{ deliveries: WithUrls }>(`/api/developers/webhook-endpoints/${endpointId}/deliveries`);
    const event = await browser.get<{ deliveries: WithUrls }>(`/api/events/${eventId}`);
    const payment = await browser.get<{ events: { id: string; deliveries: WithUrls | null }[] }>(`/api/payments/${paymentId}`);
    expect([endpoints.status, deliveries.status, event.status, payment.status]).toEqual([200, 200, 200, 200]);
    return {
      endpoints: urls(endpoints.body.endpoints),
      endpointDeliveries: urls(deliveries.body.deliveries),
      eventDeliveries: urls(event.body.deliveries),
      paymentDeliveries: urls(payment.body.events.find((row) => row.id === eventId)?.deliveries ?? []),
    };
  }

  it('given a viewer, then every view answers the URL’s origin only, and nothing of its path or query', async () => {
    const viewer = await signedInAs('viewer');
    expect(await urlsSeenBy(viewer)).toEqual({ endpoints: [ORIGIN], endpointDeliveries: [ORIGIN], eventDeliveries: [ORIGIN], paymentDeliveries: [ORIGIN] });
    const everything = JSON.stringify([
      (await viewer.get('/api/developers/webhook-endpoints')).body,
      (await viewer.get(`/api/developers/webhook-endpoints/${endpointId}/deliveries`)).body,
      (await viewer.get(`/api/events/${eventId}`)).body,
      (await viewer.get(`/api/payments/${paymentId}`)).body,
    ]);
    expect(everything).not.toContain('/hooks/');
    expect(everything).not.toContain('sekret-');
  });

  it.each(['owner', 'administrator', 'developer'])('given the %s, who manages the Developers page, then every view answers the whole URL', async (role) => {
    const browser = await signedInAs(role);
    expect(await urlsSeenBy(browser)).toEqual({ endpoints: [SECRET_URL], endpointDeliveries: [SECRET_URL], eventDeliveries: [SECRET_URL], paymentDeliveries: [SECRET_URL] });
  });
});
