import { randomUUID } from 'node:crypto';
import { connectNats, subjectPrefix } from '@pp/platform';
import { testInfra, TestStack, waitFor } from '@pp/testing';
import type { NatsConnection } from 'nats';
import { DashboardBrowser, GatewayApi, type ProvisionedMerchant } from '../testing/dashboard-client';

/*
 * A dashboard request's id (the caller's X-Request-Id, or a new one) goes
 * with the bus calls it makes, so the gateway's logs and traces name the
 * same request. Observed on the real bus: a plain subscriber gets a copy of
 * every request on the subject, headers included.
 */
describe('request ids from the dashboard to the services it calls', () => {
  let stack: TestStack;
  let merchant: ProvisionedMerchant;
  let owner: DashboardBrowser;
  let nc: NatsConnection;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway', 'dashboard'], label: 'dashboard-request-ids', env: { DASHBOARD_SECURE_COOKIE: 'false' } });
    merchant = await new GatewayApi(stack).createMerchant('Traced Shop');
    owner = new DashboardBrowser(stack.url('dashboard'));
    expect((await owner.login(merchant.dashboard_user.email, merchant.dashboard_user.password)).status).toBe(200);
    nc = await connectNats(testInfra.natsUrl, 'request-ids-spec');
  });
  afterAll(async () => {
    await nc?.close();
    await stack?.stop();
  });

  it('given a request with X-Request-Id, then its bus call carries the same id, and the answer echoes it', async () => {
    const seen: string[] = [];
    const copy = nc.subscribe(`${subjectPrefix(stack.namespace)}identity.audit.list.v1`, { callback: (_error, msg) => seen.push(msg.headers?.get('x-request-id') ?? '') });
    await nc.flush();
    const requestId = `rid-${randomUUID()}`;

    const answer = await fetch(`${stack.url('dashboard')}/api/audit`, { headers: { cookie: owner.cookie, 'x-request-id': requestId } });

    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-request-id')).toBe(requestId);
    await waitFor('the copy of the bus request', async () => seen.length > 0);
    expect(seen).toEqual([requestId]);
    copy.unsubscribe();
  });
});
