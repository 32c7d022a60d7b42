import { INGEST_RAW_EMAIL_SUBJECT, ingestRawEmailStreamName } from '@pp/contracts';
import { connectNats, subjectPrefix } from '@pp/platform';
import { buildNotice, signEmail, TestStack, testDkimKey, waitFor, writeDnsOverrides } from '@pp/testing';
import type { NatsConnection, Subscription } from 'nats';
import type { Pool } from 'pg';

describe('raw e-mails taken from JetStream', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let db: Pool;
  let silentLookup: Subscription;

  beforeAll(async () => {
    // No gateway: the merchant lookup that matching asks for is answered by nobody but the silent subscriber below.
    stack = await TestStack.start({ services: ['ingest'], label: 'rawconsumer', env: { INGEST_DNS_OVERRIDES: writeDnsOverrides(testDkimKey()) } });
    nc = await connectNats(stack.env.NATS_URL, 'raw-email-consumer-spec');
    silentLookup = nc.subscribe(`${subjectPrefix(stack.namespace)}identity.merchants-by-deposit-address.v1`);
    db = await stack.sql();
  });

  afterAll(async () => {
    silentLookup?.unsubscribe();
    await (await nc?.jetstreamManager())?.streams.delete(ingestRawEmailStreamName(stack.namespace)).catch(() => undefined);
    await nc?.drain();
    // Its hand-offs still wait on the silent lookup (a 15 s bus deadline), and a graceful stop waits for them: end it as a crash would.
    await stack?.stopService('ingest', 'SIGKILL');
    await stack?.stop();
  });

  it('stores and processes the next messages while earlier ones wait on a hand-off that does not answer', async () => {
    const raws = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        signEmail(buildNotice({ messageId: `<raw${i}.${stack.namespace}@payments.interac.ca>`, reference: `C1Rw${stack.namespace.slice(1, 6)}${i}` })),
      ),
    );
    for (const raw of raws) await nc.jetstream().publish(`${stack.namespace}.${INGEST_RAW_EMAIL_SUBJECT}`, Buffer.from(raw));

    // Taken one at a time, the second message would wait for the first hand-off's bus timeout (15 s).
    const outcomes = async () => Number((await db.query('SELECT count(*) FROM ingest.email_outcomes')).rows[0].count);
    await waitFor('all four notices stored and processed', async () => (await outcomes()) === 4, { timeoutMs: 5_000 });
    expect(Number((await db.query('SELECT count(*) FROM ingest.notice_handoffs')).rows[0].count)).toBe(0);
  });
});
