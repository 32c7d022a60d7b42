import { healthSubject, INGEST_RAW_EMAIL_SUBJECT, ingestRawEmailStreamName, type ServiceHealthReply } from '@pp/contracts';
import { type BusClient, connectNats, JetStreamProvisioningConfig, layoutSettingsOf, loadConfig, provisionJetStream, subjectPrefix } from '@pp/platform';
import { buildNotice, signEmail, TestStack, testDkimKey, waitFor, writeDnsOverrides } from '@pp/testing';
import type { NatsConnection, Subscription } from 'nats';
import type { Pool } from 'pg';
import { READER_HEALTH_CHECK } from './raw-email.consumer';

/*
 * The ingest's raw-mail reader when its stream is deleted while the service
 * runs (an operator's mistake; the migrate step makes it again): the service
 * answers not ready, naming the reader, without asking for a restart, and
 * reads the mail published once the stream is back. A real service process
 * on the real NATS server and Postgres.
 */
describe('the raw-mail reader while its stream is gone', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let bus: BusClient;
  let db: Pool;
  let silentLookup: Subscription;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['ingest'], label: 'rawreader', env: { INGEST_DNS_OVERRIDES: writeDnsOverrides(testDkimKey()) } });
    nc = await connectNats(stack.env.NATS_URL, 'raw-email-reader-spec');
    // No gateway: matching's merchant lookup goes unanswered; the test looks only at what was stored.
    silentLookup = nc.subscribe(`${subjectPrefix(stack.namespace)}identity.merchants-by-deposit-address.v1`);
    bus = await stack.bus();
    db = await stack.sql();
  });

  afterAll(async () => {
    silentLookup?.unsubscribe();
    await nc?.drain();
    await stack?.stopService('ingest', 'SIGKILL');
    await stack?.stop();
  });

  const health = (): Promise<ServiceHealthReply> => bus.request(healthSubject('ingest'), {});
  const answering = (status: ServiceHealthReply['status']) =>
    waitFor(
      `the ingest to answer ${status}`,
      async () => {
        const reply = await health();
        return reply.status === status && reply;
      },
      { timeoutMs: 20_000 },
    );
  const recreateStream = () => provisionJetStream(nc, layoutSettingsOf(loadConfig(JetStreamProvisioningConfig, stack.env)));
  const stored = async (messageId: string) => Number((await db.query('SELECT count(*) FROM ingest.emails WHERE message_id = $1', [messageId])).rows[0].count);

  it('answers down, naming the reader, while the stream is gone, and reads again once the migrate step has made it anew', async () => {
    expect((await health()).dependencies[READER_HEALTH_CHECK]).toEqual({ status: 'up', latency_ms: expect.any(Number) });

    await (await nc.jetstreamManager()).streams.delete(ingestRawEmailStreamName(stack.namespace));
    const down = await answering('down');
    expect(down.dependencies[READER_HEALTH_CHECK]).toEqual({ status: 'down', latency_ms: expect.any(Number), error: expect.stringMatching(/^not reading raw e-mails: \d+ attempts in a row failed$/) });
    // Not a reason to restart it (a restart cannot bring the stream back): this pod's liveness probe answers.
    expect((await fetch(new URL('/livez', stack.metricsUrl('ingest')))).status).toBe(200);

    await recreateStream();
    await answering('up');
    const messageId = `<after.${stack.namespace}@payments.interac.ca>`;
    await nc.jetstream().publish(`${stack.namespace}.${INGEST_RAW_EMAIL_SUBJECT}`, Buffer.from(await signEmail(buildNotice({ messageId, reference: `C1Rr${stack.namespace.slice(1, 7)}` }))));
    await waitFor('the notice published after the stream came back to be stored', async () => (await stored(messageId)) === 1, { timeoutMs: 10_000 });
  });

  it('starts while the stream is missing (a pod started before the migrate step ran), answers not ready, and reads once it is made', async () => {
    await stack.stopService('ingest');
    await (await nc.jetstreamManager()).streams.delete(ingestRawEmailStreamName(stack.namespace));
    await stack.startService('ingest');
    expect((await health()).dependencies[READER_HEALTH_CHECK]).toMatchObject({ status: 'down', error: 'not reading raw e-mails yet: the durable consumer is not bound' });

    await recreateStream();
    await answering('up');
    const messageId = `<late.${stack.namespace}@payments.interac.ca>`;
    await nc.jetstream().publish(`${stack.namespace}.${INGEST_RAW_EMAIL_SUBJECT}`, Buffer.from(await signEmail(buildNotice({ messageId, reference: `C1Rl${stack.namespace.slice(1, 7)}` }))));
    await waitFor('the notice published once the stream was made to be stored', async () => (await stored(messageId)) === 1, { timeoutMs: 10_000 });
  });
});
