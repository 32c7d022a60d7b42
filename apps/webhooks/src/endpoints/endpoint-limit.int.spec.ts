import { randomBytes, randomUUID } from 'node:crypto';
import { DomainError, MAX_WEBHOOK_ENDPOINTS, type CreateWebhookEndpointCommand } from '@pp/contracts';
import { JsonLogger } from '@pp/platform';
import { repositoryDatabase } from '@pp/testing';
import type { DataSource } from 'typeorm';
import { WebhooksDatabase } from '../database/webhooks.database';
import { WebhooksConfig } from '../webhooks.config';
import { EndpointSecrets } from './endpoint-secrets';
import { EndpointRepository } from './endpoint.repository';
import { EndpointsController } from './endpoints.controller';

/*
 * The limit of live webhook endpoints per merchant and mode holds under
 * concurrent creates, on real Postgres as the service's own role.
 */
describe('the webhook endpoint limit (real Postgres, the webhooks role)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let controller: EndpointsController;
  const config = Object.assign(new WebhooksConfig(), {
    WEBHOOK_SECRET_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    WEBHOOK_ALLOW_PRIVATE_URLS: true,
  });

  beforeAll(async () => {
    ({ dataSource, close } = await repositoryDatabase(WebhooksDatabase, 'whlimit'));
    controller = new EndpointsController(new EndpointRepository(dataSource), new EndpointSecrets(config), config, new JsonLogger('webhooks', 'error', () => undefined));
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  const creation = (merchant_id: string, livemode: boolean, n: number): CreateWebhookEndpointCommand => ({ merchant_id, livemode, url: `${livemode ? 'https' : 'http'}://127.0.0.1:9/${n}` });
  const outcomes = (results: PromiseSettledResult<unknown>[]) => ({
    made: results.filter((r) => r.status === 'fulfilled').length,
    refused: results.filter((r) => r.status === 'rejected' && r.reason instanceof DomainError && /at most 16 webhook endpoints per mode/.test(r.reason.message)).length,
  });

  it('given one place left, when eight creates race for it, then exactly one is made and seven are refused with the limit', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    for (let n = 1; n < MAX_WEBHOOK_ENDPOINTS; n++) await controller.create(creation(merchant, false, n));

    const raced = await Promise.allSettled(Array.from({ length: 8 }, (_, n) => controller.create(creation(merchant, false, 100 + n))));

    expect(outcomes(raced)).toEqual({ made: 1, refused: 7 });
    expect((await controller.list({ merchant_id: merchant, livemode: false })).endpoints).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
  });

  it('given one place left, when one request is sent twice at once (a client retrying), then both answer the one endpoint it made', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    for (let n = 1; n < MAX_WEBHOOK_ENDPOINTS; n++) await controller.create(creation(merchant, false, n));
    const request = { ...creation(merchant, false, 50), idempotency: { key: `key-${merchant}`, fingerprint: 'same-body' } };

    const [first, second] = await Promise.all([controller.create(request), controller.create(request)]);

    expect({ ...second, replayed: first.replayed }).toEqual(first);
    expect([first.replayed, second.replayed].sort()).toEqual([false, true]);
    expect((await controller.list({ merchant_id: merchant, livemode: false })).endpoints).toHaveLength(MAX_WEBHOOK_ENDPOINTS);
  });

  it('given a full test mode, when live mode creates and one test endpoint is deleted, then live is counted apart and the freed place is taken once', async () => {
    const merchant = `mer_${randomUUID().slice(0, 8)}`;
    const made = await Promise.all(Array.from({ length: MAX_WEBHOOK_ENDPOINTS }, (_, n) => controller.create(creation(merchant, false, n))));
    await expect(controller.create(creation(merchant, false, 99))).rejects.toThrow('at most 16 webhook endpoints per mode');

    await expect(controller.create(creation(merchant, true, 1))).resolves.toMatchObject({ livemode: true });
    await controller.delete({ merchant_id: merchant, livemode: false, endpoint_id: made[0].id });
    const raced = await Promise.allSettled([1, 2, 3].map((n) => controller.create(creation(merchant, false, 200 + n))));

    expect(outcomes(raced)).toEqual({ made: 1, refused: 2 });
  });
});
