import { BusClient, connectNats } from '@pp/platform';
import { TestStack, testInfra, WebhookReceiver } from '@pp/testing';
import type { NatsConnection } from 'nats';
import { sendWebhook } from './webhook-sender';

describe('SSRF guard (WEBHOOK_ALLOW_PRIVATE_URLS=false)', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let bus: BusClient;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['webhooks'], label: 'webhooksssrf', env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
    nc = await connectNats(testInfra.natsUrl, 'webhooks-ssrf-spec');
    bus = new BusClient(nc, stack.namespace, 5000);
    receiver = await WebhookReceiver.start();
  });

  afterAll(async () => {
    await receiver?.close();
    await nc?.close();
    await stack?.stop();
  });

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://[::1]/hook',
    'http://10.0.0.5/hook',
    'http://192.168.1.10/hook',
    'http://172.20.0.1/hook',
    'http://100.64.1.1/hook',
    'http://169.254.169.254/latest/meta-data/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::127.0.0.1]/hook',
    'http://[2002:a9fe:a9fe::1]/hook',
    'http://[64:ff9b::a9fe:a9fe]/hook',
    'http://[100::1]/hook',
    'http://192.0.2.10/hook',
    'http://no-such-host.invalid/hook', // no address at all: the same answer, so internal names cannot be probed
  ])('refuses to register %s without naming the address', async (url) => {
    const error = await bus.request('webhooks.endpoints.create.v1', { merchant_id: 'mer_ssrf', livemode: false, url }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Validation failed: url is not allowed: the host does not resolve to a public internet address' });
  });

  it('checks again at delivery time and never connects to a refused address', async () => {
    const response = await sendWebhook({
      url: receiver.url('/private'),
      body: Buffer.from('{}'),
      headers: {},
      timeoutMs: 1000,
      allowPrivate: false,
    });
    expect(response).toMatchObject({ httpStatus: null, error: 'not sent: the host does not resolve to a public internet address' });
    expect(receiver.received()).toEqual([]);
  });
});
