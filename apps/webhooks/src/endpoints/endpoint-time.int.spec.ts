import { randomBytes, randomUUID } from 'node:crypto';
import { JsonLogger } from '@pp/platform';
import { repositoryDatabase } from '@pp/testing';
import type { DataSource } from 'typeorm';
import { WebhooksDatabase } from '../database/webhooks.database';
import { WebhooksConfig } from '../webhooks.config';
import { EndpointSecrets } from './endpoint-secrets';
import { EndpointRepository } from './endpoint.repository';
import { EndpointsController } from './endpoints.controller';

/*
 * An endpoint's created_at is the database's time, as the ledger's events
 * are timed: intake delivers an event to the endpoints made no later than
 * it, so a webhooks process whose clock runs ahead must not date its
 * endpoints after the events of the merchant's next request.
 */
describe('an endpoint’s creation time (real Postgres, the webhooks role)', () => {
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let controller: EndpointsController;
  const config = Object.assign(new WebhooksConfig(), { WEBHOOK_SECRET_KEYS: `k1:${randomBytes(32).toString('base64')}`, WEBHOOK_ALLOW_PRIVATE_URLS: true });

  beforeAll(async () => {
    ({ dataSource, close } = await repositoryDatabase(WebhooksDatabase, 'whtime'));
    controller = new EndpointsController(new EndpointRepository(dataSource), new EndpointSecrets(config), config, new JsonLogger('webhooks', 'error', () => undefined));
  }, 60_000);
  afterAll(async () => {
    jest.useRealTimers();
    await close?.();
  });

  const databaseNow = async (): Promise<number> => ((await dataSource.query(`SELECT now() AS at`)) as Array<{ at: Date }>)[0].at.getTime();

  it('given this process’s clock an hour ahead, when an endpoint is made, then it is dated by the database, to the millisecond', async () => {
    const before = await databaseNow();
    // Only Date is faked: timers, ticks and the driver's sockets run as they do.
    jest.useFakeTimers({ now: Date.now() + 3_600_000, doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback', 'cancelIdleCallback', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    const made = await controller.create({ merchant_id: `mer_${randomUUID().slice(0, 8)}`, livemode: false, url: 'http://127.0.0.1:9/hook' });
    jest.useRealTimers();
    const after = await databaseNow();

    const createdAt = Date.parse(made.created_at);
    expect(createdAt).toBeGreaterThanOrEqual(before - 1);
    expect(createdAt).toBeLessThanOrEqual(after);
    expect(made.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
