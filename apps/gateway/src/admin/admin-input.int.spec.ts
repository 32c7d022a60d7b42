import { randomUUID } from 'node:crypto';
import type { BusClient } from '@pp/platform';
import { TestStack } from '@pp/testing';
import type { IssuedApiKeyView, MerchantView, ProvisionedMerchantView } from '../identity/identity.views';
import { type CallOptions, GatewayClient } from '../testing/gateway-client';

/*
 * What the operator's merchant settings take, through the admin API and
 * through the bus subjects the dashboard's platform-admin console sends (the
 * gateway serves both, with the same contract rules). Only the gateway runs.
 */
describe('admin inputs', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let bus: BusClient;
  let merchant: ProvisionedMerchantView;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'admininput' });
    gateway = new GatewayClient(stack);
    bus = await stack.bus();
    merchant = await gateway.createMerchant('Before Rename');
  });
  afterAll(() => stack?.stop());

  const admin = <T>(path: string, options: CallOptions = {}) => gateway.call<T>(`/v1/admin${path}`, { token: gateway.adminToken, ...options });
  /** The bus's answer, or the DomainError it was refused with. */
  const send = (request: Promise<unknown>) => request.then((answer) => answer, (error: unknown) => error);
  const HIDDEN = (field: string) => `${field} must not contain control or invisible formatting characters`;

  describe('an API key’s expires_at', () => {
    const issue = (expires_at: unknown) => admin<IssuedApiKeyView>(`/merchants/${merchant.merchant_id}/keys`, { body: { type: 'secret', livemode: false, expires_at } });

    it.each([
      ['a week date, which failed the insert with 500', '2030-W01'],
      ['an ordinal date', '2030-152'],
      ['a time without an offset, which was read in the server’s zone', '2030-06-01T12:00'],
      ['a day February has not', '2030-02-30T00:00:00Z'],
    ])('refuses %s with 400 naming the expected form', async (_case, expiresAt) => {
      expect(await issue(expiresAt)).toMatchObject({ status: 400, body: { error: 'Validation failed: expires_at must be a date-time with its offset, such as 2030-06-01T12:00:00Z' } });
    });

    it.each(['2030-06-01T12:00:00Z', '2030-06-01T07:00:00.000123-05:00'])('takes %s, in the future, and keeps it in UTC to the millisecond', async (expiresAt) => {
      const issued = await issue(expiresAt);
      expect(issued.status).toBe(201);
      expect(issued.body.expires_at).toBe('2030-06-01T12:00:00.000Z');
      await gateway.revokeKey(issued.body.id);
    });

    it('refuses one in the past, as before', async () => {
      expect(await issue('2020-06-01T12:00:00Z')).toMatchObject({ status: 400, body: { error: 'Validation failed: expires_at must be in the future' } });
    });
  });

  describe('e-mail addresses', () => {
    it.each([
      ['U+202E', '\u202e'],
      ['U+200B', '\u200b'],
    ])('refuses an owner’s or platform admin’s address holding %s, which an e-mail check alone takes', async (_shown, character) => {
      const email = `own${character}er-${randomUUID()}@shop.example`;
      const error = `Validation failed: ${HIDDEN('email')}`;
      expect(await admin('/merchants', { body: { name: 'Shop', email } })).toMatchObject({ status: 400, body: { error } });
      expect(await admin('/platform_admins', { body: { email } })).toMatchObject({ status: 400, body: { error } });
    });
  });

  describe('renaming a merchant', () => {
    it('through PATCH /v1/admin/merchants/:id', async () => {
      const renamed = await admin<MerchantView>(`/merchants/${merchant.merchant_id}`, { method: 'PATCH', body: { name: 'Renamed by the API' } });
      expect(renamed).toMatchObject({ status: 200, body: { id: merchant.merchant_id, name: 'Renamed by the API' } });
      expect((await admin<MerchantView>(`/merchants/${merchant.merchant_id}`)).body.name).toBe('Renamed by the API');
    });

    it('through the platform admins’ console (identity.merchants.update.v1), leaving the other settings as they are', async () => {
      await admin(`/merchants/${merchant.merchant_id}`, { method: 'PATCH', body: { etransfer_email: 'pay-rename@shop.example', frame_ancestors: ['https://shop.example'] } });
      const renamed = await bus.request('identity.merchants.update.v1', { merchant_id: merchant.merchant_id, name: 'Renamed by the console' });
      expect(renamed).toMatchObject({ id: merchant.merchant_id, name: 'Renamed by the console', etransfer_email: 'pay-rename@shop.example', frame_ancestors: ['https://shop.example'] });
      expect((await admin<MerchantView>(`/merchants/${merchant.merchant_id}`)).body.name).toBe('Renamed by the console');
    });

    it('refuses a name with invisible formatting on either path, and keeps the name', async () => {
      const name = 'Shop\u202egnikab';
      expect(await admin(`/merchants/${merchant.merchant_id}`, { method: 'PATCH', body: { name } })).toMatchObject({ status: 400, body: { error: `Validation failed: ${HIDDEN('name')}` } });
      expect(await send(bus.request('identity.merchants.update.v1', { merchant_id: merchant.merchant_id, name }))).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: `Validation failed: ${HIDDEN('name')}`,
      });
      expect((await admin<MerchantView>(`/merchants/${merchant.merchant_id}`)).body.name).not.toBe(name);
    });
  });

  it('refuses a merchant search holding a control or invisible formatting character, and finds by plain text', async () => {
    for (const search of ['shop\u202e', 'shop\tname', 'shop\u0000']) {
      expect(await send(bus.request('identity.merchants.list.v1', { search }))).toMatchObject({ code: 'VALIDATION_FAILED', message: `Validation failed: ${HIDDEN('search')}` });
    }
    const searched = await gateway.createMerchant(`Searched ${randomUUID()}`);
    const found = await bus.request('identity.merchants.list.v1', { search: 'searched' });
    expect(found.data.map((m) => m.id)).toContain(searched.merchant_id);
  });
});
