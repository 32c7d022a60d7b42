import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { MerchantEventType } from '@pp/contracts';
import type { BusClient } from '@pp/platform';
import { entryPoint, type TestStack, waitFor, type WebhookReceiver } from '@pp/testing';
import type { LedgerEventFixture } from '../intake/ledger-event.fixture';
import { startWebhooksTestBed, type WebhooksTestBed } from '../testing/webhooks-test-bed';

const newKey = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

describe('webhook signing secrets at rest (sealed under WEBHOOK_SECRET_KEYS)', () => {
  let bed: WebhooksTestBed;
  let stack: TestStack;
  let bus: BusClient;
  let ledger: LedgerEventFixture;
  let receiver: WebhookReceiver;
  const k1 = newKey('k1');
  const k2 = newKey('k2');

  beforeAll(async () => {
    bed = await startWebhooksTestBed('whsecrets', { WEBHOOK_SECRET_KEYS: k1 });
    ({ stack, bus, ledger, receiver } = bed);
  });

  afterAll(() => bed?.close());

  const restartWith = async (keys: string) => {
    await stack.stopService('webhooks');
    stack.env.WEBHOOK_SECRET_KEYS = keys;
    await stack.startService('webhooks');
  };

  const rows = async () =>
    (await (await stack.sql()).query(`SELECT id, secret_sealed, previous_secret_sealed, t::text AS whole FROM webhooks.endpoints t ORDER BY id`)).rows as Array<{
      id: string;
      secret_sealed: string;
      previous_secret_sealed: string | null;
      whole: string;
    }>;

  /** Publishes an event for the merchant and answers the delivery once it arrives at `path`, verified or not. */
  const deliverOne = async (merchantId: string, path: string) => {
    const event = ledger.event(merchantId, MerchantEventType.PaymentConfirmed);
    await ledger.publish(event);
    return waitFor(`delivery of ${event.id}`, () => receiver.received(path).find((r) => r.eventId === event.id));
  };

  it('stores no secret in the clear, keeps signing after rotating the encryption key, and re-seals every row under the new first key', async () => {
    const merchant = `mer_sealed${Date.now()}`;
    const created = await bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: receiver.url('/sealed') });
    const rotated = await bus.request('webhooks.endpoints.rotate-secret.v1', { merchant_id: merchant, livemode: false, endpoint_id: created.id });
    const secrets = [created.secret, rotated.secret];
    for (const secret of secrets) receiver.trust('/sealed', secret);

    const before = await rows();
    expect(before).toHaveLength(1);
    expect(before[0]!.secret_sealed).toMatch(/^v1:k1:/);
    expect(before[0]!.previous_secret_sealed).toMatch(/^v1:k1:/);
    for (const secret of secrets) {
      expect(before[0]!.whole).not.toContain(secret);
      expect(before[0]!.whole).not.toContain(secret.slice('whsec_'.length));
    }
    expect(before[0]!.whole).not.toContain('whsec_');

    // New key first, old key still listed: the boot pass re-seals, deliveries verify with both issued secrets.
    await restartWith(`${k2},${k1}`);
    const resealed = await rows();
    expect(resealed[0]!.secret_sealed).toMatch(/^v1:k2:/);
    expect(resealed[0]!.previous_secret_sealed).toMatch(/^v1:k2:/);
    const afterRotation = await deliverOne(merchant, '/sealed');
    expect(afterRotation.verification.valid).toBe(true);
    expect(afterRotation.verification.secretsMatchedByV2.sort()).toEqual([...secrets].sort());

    // The old key removed: nothing needs it any more.
    await restartWith(k2);
    const withNewKeyOnly = await deliverOne(merchant, '/sealed');
    expect(withNewKeyOnly.verification.valid).toBe(true);
  });

  it('seals secrets stored in the clear before sealing existed, the first time the service runs with a key', async () => {
    const merchant = `mer_legacy${Date.now()}`;
    const created = await bus.request('webhooks.endpoints.create.v1', { merchant_id: merchant, livemode: false, url: receiver.url('/legacy') });
    receiver.trust('/legacy', created.secret);
    await stack.stopService('webhooks');
    // The row as main stored it: the secret as issued (the table check is what the upgrade adds, so it is lifted here).
    const sql = await stack.sql();
    await sql.query(`ALTER TABLE webhooks.endpoints DROP CONSTRAINT endpoints_secrets_sealed`);
    await sql.query(`UPDATE webhooks.endpoints SET secret_sealed = $2 WHERE id = $1`, [created.id, created.secret]);
    await sql.query(
      `ALTER TABLE webhooks.endpoints ADD CONSTRAINT endpoints_secrets_sealed
         CHECK (secret_sealed LIKE 'v1:%' AND (previous_secret_sealed IS NULL OR previous_secret_sealed LIKE 'v1:%')) NOT VALID`,
    );
    await stack.startService('webhooks');

    const row = (await rows()).find((r) => r.id === created.id)!;
    expect(row.secret_sealed).toMatch(new RegExp(`^v1:${stack.env.WEBHOOK_SECRET_KEYS.split(':')[0]}:`));
    expect(row.whole).not.toContain(created.secret);
    const { rows: unsealed } = await sql.query(`SELECT id FROM webhooks.endpoints WHERE secret_sealed NOT LIKE 'v1:%' OR previous_secret_sealed NOT LIKE 'v1:%'`);
    expect(unsealed).toEqual([]);
    await expect(sql.query(`UPDATE webhooks.endpoints SET secret_sealed = 'whsec_plain' WHERE id = $1`, [created.id])).rejects.toThrow(/endpoints_secrets_sealed/);
    expect((await deliverOne(merchant, '/legacy')).verification.valid).toBe(true);
  });

  it('refuses to start, naming the key, when a secret is sealed under a key the configuration no longer lists', async () => {
    await stack.stopService('webhooks');
    const env = await stack.envFor('webhooks');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = fork(entryPoint('webhooks'), [], {
        env: { PATH: process.env.PATH ?? '', ...env, WEBHOOK_SECRET_KEYS: newKey('k3') },
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', (code) => resolve({ code, stderr }));
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[webhooks] failed to start: webhook endpoint secrets are sealed under key id(s) k2, which WEBHOOK_SECRET_KEYS does not list (it lists k3)');
    expect(await rows()).toEqual(expect.arrayOf(expect.objectContaining({ secret_sealed: expect.stringMatching(/^v1:k2:/) })));
    await stack.startService('webhooks'); // the configured keys still work
  });
});
