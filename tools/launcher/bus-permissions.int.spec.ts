import { ingestRawEmailBucketName, ingestRawEmailStreamName, MAIL_PIPELINE, MIGRATE_IDENTITY, type ServiceName } from '@pp/contracts';
import { blobBucketStream, BusClient, connectNats } from '@pp/platform';
import { TestStack, testInfra, waitFor } from '@pp/testing';
import { connect, type NatsConnection } from 'nats';

/*
 * An outsider (or a compromised service) on the project's NATS server, which
 * `npm test` runs with the permissions generated from libs/contracts'
 * subject registry: nobody gets in without an identity, and each identity
 * reaches only the subjects the registry gives it.
 */

describe('the bus refuses what an identity is not allowed', () => {
  let stack: TestStack;
  let harness: NatsConnection;
  const connections: NatsConnection[] = [];
  const serverAddress = () => {
    const url = new URL(testInfra.natsUrl);
    return `${url.hostname}:${url.port}`;
  };
  const as = async (identity: ServiceName | typeof MAIL_PIPELINE | typeof MIGRATE_IDENTITY) => {
    const nc = await connectNats(testInfra.natsUrlOf(identity), `attack-as-${identity}`);
    connections.push(nc);
    return nc;
  };
  const subject = (name: string) => `${stack.namespace}.${name}`;

  /** What the harness (allowed to listen anywhere) sees published on `name`. */
  const observe = async (name: string) => {
    const seen: string[] = [];
    harness.subscribe(subject(name), { callback: (_error, msg) => seen.push(Buffer.from(msg.data).toString('utf8')) });
    await harness.flush();
    return seen;
  };

  /** Resolves with the server's refusal of a subscription (the client hands it to the subscription's callback). */
  const subscriptionRefusal = (nc: NatsConnection, target: string) =>
    new Promise<string>((resolve) => {
      nc.subscribe(target, { callback: (error) => error && resolve(error.message) });
    });

  /** Resolves with the server's refusal of a plain publish (reported on the connection's status). */
  const publishRefusal = async (nc: NatsConnection, target: string) => {
    const refusal = (async () => {
      for await (const status of nc.status()) {
        const context = (status as { permissionContext?: { operation: string; subject: string } }).permissionContext;
        if (context?.operation === 'publish' && context.subject === target) return context;
      }
      return undefined;
    })();
    nc.publish(target, Buffer.from('{}'));
    await nc.flush();
    return refusal;
  };

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['sessions', 'ledger'], label: 'busperms' });
    harness = await connectNats(testInfra.natsUrl, 'bus-permissions-spec');
  });
  afterAll(async () => {
    await Promise.all([...connections, harness].map((nc) => nc?.close()));
    await stack?.stop();
  });

  it('refuses an anonymous connection and a wrong password', async () => {
    await expect(connect({ servers: serverAddress(), timeout: 3000, reconnect: false })).rejects.toMatchObject({
      code: 'AUTHORIZATION_VIOLATION',
    });
    await expect(
      connect({ servers: serverAddress(), user: 'ledger', pass: 'not-the-password', timeout: 3000, reconnect: false }),
    ).rejects.toMatchObject({ code: 'AUTHORIZATION_VIOLATION' });
  });

  it('refuses the gateway’s identity ledger appends and transfer records, which real services would otherwise answer', async () => {
    const gateway = new BusClient(await as('gateway'), stack.namespace, 5000);
    const appends = await observe('ledger.append.v1');
    const transfers = await observe('payments.record-transfer.v1');
    const append = { stream_id: 'checkout_session-forged', expected_version: 0, events: [] } as never;
    await expect(gateway.request('ledger.append.v1', append)).rejects.toMatchObject({ message: expect.stringMatching(/Permissions Violation for Publish/) });
    const transfer = { merchant_id: 'mer_x', livemode: true, email_id: 'em_forged', memo: 'PP-ABCDEF', amount: 2500 } as never;
    await expect(gateway.request('payments.record-transfer.v1', transfer)).rejects.toMatchObject({
      message: expect.stringMatching(/Permissions Violation for Publish/),
    });

    // The same server delivers what an allowed identity sends, so the silence above is the refusal.
    const sessions = new BusClient(await as('sessions'), stack.namespace, 5000);
    const overdue = await sessions.request('ledger.checkout-sessions.overdue.v1', { due_by: new Date().toISOString(), limit: 1 });
    expect(overdue).toEqual({ sessions: [] });
    harness.publish(subject('payments.record-transfer.v1'), Buffer.from('control'));
    await waitFor('the harness’s control message', () => transfers.includes('control'));
    expect(transfers).toEqual(['control']);
    expect(appends).toEqual([]);
  });

  it('lets the checkout identity reach its payer-facing subjects but not refunds or the ledger', async () => {
    const checkout = new BusClient(await as('checkout'), stack.namespace, 5000);
    await expect(checkout.request('checkout-page.session.v1', { session_id: 'nosuchsession' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Checkout session not found',
    });
    for (const forbidden of ['refunds.approve.v1', 'refunds.request.v1', 'ledger.payments.list.v1', 'sessions.get.v1'] as const) {
      await expect(checkout.request(forbidden, {} as never)).rejects.toMatchObject({ message: expect.stringMatching(/Permissions Violation for Publish/) });
    }
  });

  it.each(['gateway', 'checkout', 'ingest', 'webhooks'] as const)(
    'refuses %s a subscription to everything, to another identity’s replies and to subjects it does not serve',
    async (identity) => {
      const nc = await as(identity);
      expect(await subscriptionRefusal(nc, '>')).toMatch(/Permissions Violation for Subscription to ">"/);
      expect(await subscriptionRefusal(nc, '_INBOX_ledger.>')).toMatch(/Permissions Violation for Subscription/);
      expect(await subscriptionRefusal(nc, '_INBOX.>')).toMatch(/Permissions Violation for Subscription/);
      expect(await subscriptionRefusal(nc, subject('ledger.append.v1'))).toMatch(/Permissions Violation for Subscription/);
    },
  );

  it('lets the mail pipeline publish raw e-mails and nothing else', async () => {
    const mail = await as(MAIL_PIPELINE);
    const raw = await observe('ingest.email.raw');
    mail.publish(subject('ingest.email.raw'), Buffer.from('From: bank\r\n\r\nraw'));
    await waitFor('the raw e-mail to arrive', () => raw.length === 1);
    expect(raw).toEqual(['From: bank\r\n\r\nraw']);

    const transfers = await observe('payments.record-transfer.v1');
    for (const forbidden of ['payments.record-transfer.v1', 'ingest.email.submit.v1', 'ledger.append.v1']) {
      expect(await publishRefusal(mail, subject(forbidden))).toEqual({ operation: 'publish', subject: subject(forbidden), queue: undefined });
    }
    expect(transfers).toEqual([]);
    expect(await subscriptionRefusal(mail, subject('ingest.email.raw'))).toMatch(/Permissions Violation for Subscription/);
  });

  it('refuses the gateway’s identity, which writes the raw-mail bucket, lifting the bucket’s byte limit, and the ingest’s; only the migrate step may change it', async () => {
    const stream = blobBucketStream(ingestRawEmailBucketName(stack.namespace));
    const gateway = await (await as('gateway')).jetstreamManager();
    const { config } = await gateway.streams.info(stream);

    await expect(gateway.streams.update(stream, { ...config, max_bytes: -1 })).rejects.toThrow(/Permissions Violation for Publish/);
    await expect(gateway.streams.add({ ...config, name: `${stream}_2`, subjects: [`$O.${stream}_2.>`] })).rejects.toThrow(/Permissions Violation for Publish/);
    const ingest = await (await as('ingest')).jetstreamManager();
    await expect(ingest.streams.update(stream, { ...config, max_bytes: -1 })).rejects.toThrow(/Permissions Violation for Publish/);
    expect((await gateway.streams.info(stream)).config.max_bytes).toBe(config.max_bytes);

    const migrate = await (await as(MIGRATE_IDENTITY)).jetstreamManager();
    expect((await migrate.streams.update(stream, { ...config, max_bytes: config.max_bytes * 2 })).config.max_bytes).toBe(config.max_bytes * 2);
  });

  it('refuses the ingest’s identity making its own stream capture another identity’s replies, or republish into a subject it may not publish to', async () => {
    const ingest = await (await as('ingest')).jetstreamManager();
    const stream = ingestRawEmailStreamName(stack.namespace);
    const { config } = await ingest.streams.info(stream);

    await expect(ingest.streams.update(stream, { ...config, subjects: [...config.subjects, '_INBOX_dashboard.>'] })).rejects.toThrow(/Permissions Violation for Publish/);
    await expect(ingest.streams.update(stream, { ...config, republish: { src: '>', dest: subject('payments.verify.v1') } })).rejects.toThrow(/Permissions Violation for Publish/);
    expect((await ingest.streams.info(stream)).config).toMatchObject({ subjects: config.subjects });
    expect((await ingest.streams.info(stream)).config.republish).toBeUndefined();
  });
});
