import { randomBytes, randomUUID } from 'node:crypto';
import { CreateWebhookEndpointCommand, ErrorCode, IDEMPOTENCY_RETENTION_SECONDS, RotateWebhookEndpointSecretCommand, SECRET_ROTATED_SINCE } from '@pp/contracts';
import { JsonLogger } from '@pp/platform';
import { repositoryDatabase, waitFor } from '@pp/testing';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { WebhooksDatabase } from '../database/webhooks.database';
import type { DeliveryQueue } from '../delivery/delivery.queue';
import { DeliveryRepository } from '../delivery/delivery.repository';
import { DeliverySweeper } from '../delivery/delivery.sweeper';
import { planOf, recordingStatements } from '../testing/query-plans';
import { WebhooksConfig } from '../webhooks.config';
import { EndpointSecrets } from './endpoint-secrets';
import { EndpointRepository } from './endpoint.repository';
import { EndpointsController } from './endpoints.controller';

/*
 * The Idempotency-Key records of endpoint creations and rotations
 * (webhooks.endpoint_requests), and of resends (webhooks.resend_requests), are pruned once past the gateway's retention
 * of keys, on real Postgres as the service's own role: old ones go, the
 * others stay and still answer their repeats.
 */
describe('endpoint requests past the Idempotency-Key retention (real Postgres, the webhooks role)', () => {
  let admin: Pool;
  let dataSource: DataSource;
  let close: () => Promise<void>;
  let endpoints: EndpointRepository;
  let controller: EndpointsController;
  const logger = new JsonLogger('webhooks', 'error', () => undefined);
  const config = Object.assign(new WebhooksConfig(), {
    WEBHOOK_SECRET_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    WEBHOOK_ALLOW_PRIVATE_URLS: true,
    WEBHOOK_SWEEP_INTERVAL_MS: 100,
  });

  beforeAll(async () => {
    ({ dataSource, admin, close } = await repositoryDatabase(WebhooksDatabase, 'whrequests'));
    endpoints = new EndpointRepository(dataSource);
    controller = new EndpointsController(endpoints, new EndpointSecrets(config), config, logger);
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  const scope = () => ({ merchant_id: `mer_${randomUUID().slice(0, 8)}`, livemode: false });
  const creation = (merchant: ReturnType<typeof scope>, key: string): CreateWebhookEndpointCommand => ({
    ...merchant,
    url: `http://127.0.0.1:9/${key}`,
    idempotency: { key, fingerprint: `f-${key}` },
  });
  /** Moves the request recorded under `key` back in time by `seconds`. */
  const age = (key: string, seconds: number) =>
    admin.query(`UPDATE webhooks.endpoint_requests SET created_at = now() - make_interval(secs => $2) WHERE idempotency_key = $1`, [key, seconds]);
  const keysKept = async (merchant: ReturnType<typeof scope>) =>
    (await admin.query(`SELECT idempotency_key FROM webhooks.endpoint_requests WHERE merchant_id = $1 ORDER BY idempotency_key`, [merchant.merchant_id])).rows.map(
      (row) => row.idempotency_key as string,
    );

  it('given requests a day old and younger, when the sweeper runs, then the old go, the others stay and a repeat of one still answers its endpoint', async () => {
    const merchant = scope();
    const stale = await controller.create(creation(merchant, 'stale'));
    const recent = await controller.create(creation(merchant, 'recent'));
    const rotation: RotateWebhookEndpointSecretCommand = { ...merchant, endpoint_id: recent.id, idempotency: { key: 'recent-rotation', fingerprint: 'f-rotation' } };
    const rotated = await controller.rotateSecret(rotation);
    await age('stale', IDEMPOTENCY_RETENTION_SECONDS + 60);
    await age('recent', IDEMPOTENCY_RETENTION_SECONDS - 60);
    await age('recent-rotation', IDEMPOTENCY_RETENTION_SECONDS - 60);

    const sweeper = new DeliverySweeper(config, new DeliveryRepository(dataSource, logger), { requeue: async () => 0 } as unknown as DeliveryQueue, endpoints, logger);
    sweeper.onApplicationBootstrap();
    try {
      await waitFor('the stale request to be pruned', async () => !(await keysKept(merchant)).includes('stale'));
    } finally {
      await sweeper.onApplicationShutdown();
    }

    expect(await keysKept(merchant)).toEqual(['recent', 'recent-rotation']);
    // Within the retention a repeat answers what its request made; a creation whose secret was rotated since, no secret.
    await expect(controller.create(creation(merchant, 'recent'))).rejects.toMatchObject({ code: ErrorCode.Conflict, message: SECRET_ROTATED_SINCE });
    expect(await controller.rotateSecret(rotation)).toEqual({ ...rotated, replayed: true });
    // Past it the key is a new one: recorded again, for a new endpoint (while its old record stayed, recording it failed).
    const again = await controller.create(creation(merchant, 'stale'));
    expect(again.id).not.toBe(stale.id);
    expect(await keysKept(merchant)).toEqual(['recent', 'recent-rotation', 'stale']);
  });

  it('given a secret rotated at once after a rotation (it leaked), then replaying the earlier rotation’s key answers no secret; the latest still answers its own', async () => {
    const merchant = scope();
    const made = await controller.create(creation(merchant, 'made'));
    const first: RotateWebhookEndpointSecretCommand = { ...merchant, endpoint_id: made.id, idempotency: { key: 'first-rotation', fingerprint: 'f-rotation' } };
    await controller.rotateSecret(first);
    const leaked: RotateWebhookEndpointSecretCommand = { ...merchant, endpoint_id: made.id, previous_secret_expires_in: 0, idempotency: { key: 'after-leak', fingerprint: 'f-leak' } };
    const current = await controller.rotateSecret(leaked);

    await expect(controller.rotateSecret(first)).rejects.toMatchObject({ code: ErrorCode.Conflict, message: SECRET_ROTATED_SINCE });
    await expect(controller.create(creation(merchant, 'made'))).rejects.toMatchObject({ code: ErrorCode.Conflict, message: SECRET_ROTATED_SINCE });
    expect(await controller.rotateSecret(leaked)).toEqual({ ...current, replayed: true });
  });

  it('given a request past the retention that no sweep has pruned yet, when its key comes again, then it is a new request', async () => {
    const merchant = scope();
    const first = await controller.create(creation(merchant, 'reused'));
    await age('reused', IDEMPOTENCY_RETENTION_SECONDS + 1);

    const again = await controller.create(creation(merchant, 'reused'));

    expect(again.id).not.toBe(first.id);
    expect(await keysKept(merchant)).toEqual(['reused']);
    expect(await controller.create(creation(merchant, 'reused'))).toMatchObject({ id: again.id, secret: again.secret });
  });

  it('prunes at most the batch given, oldest first, through the age index, with DELETE the only privilege the role gained', async () => {
    const merchant = scope();
    for (const key of ['oldest', 'older', 'old', 'fresh']) await controller.create(creation(merchant, key));
    await age('oldest', IDEMPOTENCY_RETENTION_SECONDS + 300);
    await age('older', IDEMPOTENCY_RETENTION_SECONDS + 200);
    await age('old', IDEMPOTENCY_RETENTION_SECONDS + 100);
    const recording = recordingStatements(dataSource);

    expect(await new EndpointRepository(recording.dataSource).pruneRequests(2)).toBe(2);
    expect(await keysKept(merchant)).toEqual(['fresh', 'old']);
    expect(await endpoints.pruneRequests(2)).toBe(1);
    expect(await keysKept(merchant)).toEqual(['fresh']);

    // The statement reads the index, not the table.
    expect(await planOf(admin, recording.statements[0])).toContain('endpoint_requests_by_age');

    const privileges = await admin.query(
      `SELECT privilege FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) AS privilege
        WHERE has_table_privilege('pp_webhooks', 'webhooks.endpoint_requests', privilege) ORDER BY privilege`,
    );
    expect(privileges.rows.map((row) => row.privilege)).toEqual(['DELETE', 'INSERT', 'SELECT']);
  });

  it('given resend requests past the retention, then a lookup of one forgets it, and pruning takes at most the batch, oldest first, through their age index, with DELETE the only privilege the role gained', async () => {
    const merchant = scope();
    const eventId = `evt_${randomUUID().replace(/-/g, '')}`;
    await admin.query(`INSERT INTO webhooks.events (id, merchant_id, livemode, type, body, created_at) VALUES ($1, $2, false, 'payment.confirmed', '{}', now())`, [eventId, merchant.merchant_id]);
    const keys = ['oldest', 'older', 'old', 'fresh', 'forgotten'];
    for (const key of keys) {
      await admin.query(
        `INSERT INTO webhooks.resend_requests (merchant_id, livemode, idempotency_key, fingerprint, event_id, webhook_ids) VALUES ($1, false, $2, 'f', $3, '{}')`,
        [merchant.merchant_id, key, eventId],
      );
    }
    const ageResend = (key: string, seconds: number) =>
      admin.query(`UPDATE webhooks.resend_requests SET created_at = now() - make_interval(secs => $3) WHERE merchant_id = $1 AND idempotency_key = $2`, [merchant.merchant_id, key, seconds]);
    const resendKeysKept = async () =>
      (await admin.query(`SELECT idempotency_key FROM webhooks.resend_requests WHERE merchant_id = $1 ORDER BY idempotency_key`, [merchant.merchant_id])).rows.map((row) => row.idempotency_key as string);
    await ageResend('oldest', IDEMPOTENCY_RETENTION_SECONDS + 300);
    await ageResend('older', IDEMPOTENCY_RETENTION_SECONDS + 200);
    await ageResend('old', IDEMPOTENCY_RETENTION_SECONDS + 100);
    await ageResend('forgotten', IDEMPOTENCY_RETENTION_SECONDS + 1);
    const deliveries = new DeliveryRepository(dataSource, logger);

    expect(await deliveries.resendRequested(merchant, 'fresh')).toMatchObject({ event_id: eventId });
    expect(await deliveries.resendRequested(merchant, 'forgotten')).toBeUndefined();
    expect(await resendKeysKept()).toEqual(['fresh', 'old', 'older', 'oldest']);

    const recording = recordingStatements(dataSource);
    expect(await new DeliveryRepository(recording.dataSource, logger).pruneResendRequests(2)).toBe(2);
    expect(await resendKeysKept()).toEqual(['fresh', 'old']);
    expect(await deliveries.pruneResendRequests(2)).toBe(1);
    expect(await resendKeysKept()).toEqual(['fresh']);
    expect(await planOf(admin, recording.statements[0])).toContain('resend_requests_by_age');

    const privileges = await admin.query(
      `SELECT privilege FROM unnest(ARRAY['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) AS privilege
        WHERE has_table_privilege('pp_webhooks', 'webhooks.resend_requests', privilege) ORDER BY privilege`,
    );
    expect(privileges.rows.map((row) => row.privilege)).toEqual(['DELETE', 'INSERT', 'SELECT']);
  });
});
