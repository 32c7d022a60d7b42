import { randomUUID } from 'node:crypto';
import { ROOT_CONTEXT } from '@opentelemetry/api';
import { LEDGER_EVENTS_STREAM } from '@pp/contracts';
import type { JetStreamManager, NatsConnection } from 'nats';
import { openSpecConnection } from '../nats/testing/spec-nats';
import { ensureStream, streamName } from './ensure-stream';
import { publishTraced } from './jetstream-trace';

describe('publishTraced (real JetStream)', () => {
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const namespace = `jst${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const stream = streamName(namespace, LEDGER_EVENTS_STREAM);
  const subject = `${namespace}.ledger.events.merchant.payment.confirmed`;

  beforeAll(async () => {
    nc = await openSpecConnection('jetstream-trace-spec');
    jsm = await ensureStream(nc, { name: stream, subjects: [`${namespace}.ledger.events.>`], duplicateWindowMs: 60_000, maxAgeMs: 0, replicas: 1 });
  });
  afterAll(async () => {
    await jsm?.streams.delete(stream).catch(() => undefined);
    await nc?.close();
  });

  const publishedRequestId = async (requestId: string | undefined) => {
    const ack = await publishTraced(nc, subject, Buffer.from('{}'), `evt_${randomUUID()}`, ROOT_CONTEXT, requestId);
    const stored = await jsm.streams.getMessage(stream, { seq: ack.seq });
    return stored.header.get('x-request-id');
  };

  it('given the request id of the event’s request, when published, then the message carries it as x-request-id', async () => {
    expect(await publishedRequestId('req_7Hc2.checkout:1')).toBe('req_7Hc2.checkout:1');
  });

  it('given no request id, or one the platform would not keep (spaces, too long), then the message carries none', async () => {
    expect(await Promise.all([undefined, 'two words', 'a'.repeat(129)].map(publishedRequestId))).toEqual(['', '', '']);
  });
});
