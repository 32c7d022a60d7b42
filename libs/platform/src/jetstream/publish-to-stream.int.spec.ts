import { randomUUID } from 'node:crypto';
import { LEDGER_EVENTS_STREAM } from '@pp/contracts';
import { DiscardPolicy, ErrorCode, headers, type JetStreamManager, type NatsConnection, NatsError } from 'nats';
import { openSpecConnection } from '../nats/testing/spec-nats';
import { ensureStream, streamName } from './ensure-stream';
import { publishToStream } from './publish-to-stream';
import { isStorageFull } from './storage-full';

describe('publishToStream', () => {
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const namespace = `pts${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const stream = streamName(namespace, LEDGER_EVENTS_STREAM);
  const subject = `${namespace}.ledger.events.test.published`;
  const data = (text: string) => Buffer.from(text);

  beforeAll(async () => {
    nc = await openSpecConnection('publish-to-stream-spec');
    jsm = await ensureStream(nc, { name: stream, subjects: [`${namespace}.ledger.events.>`], duplicateWindowMs: 60_000, maxAgeMs: 0, replicas: 1 });
  });
  afterAll(async () => {
    await jsm?.streams.delete(stream).catch(() => undefined);
    await nc?.close();
  });

  it('given a stream for the subject, when a message is published, then JetStream stores it and acknowledges its place, with the headers sent', async () => {
    const sent = headers();
    sent.set('traceparent', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
    const ack = await publishToStream(nc, subject, data('first'), `evt_${randomUUID()}`, sent);
    expect(ack).toEqual({ stream, seq: expect.any(Number), duplicate: false });
    const stored = await jsm.streams.getMessage(stream, { seq: ack.seq });
    expect(Buffer.from(stored.data).toString('utf8')).toBe('first');
    expect(stored.header.get('traceparent')).toBe('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01');
  });

  it('given a message id JetStream already holds, when it is published again, then the ack says duplicate and names the first copy', async () => {
    const id = `evt_${randomUUID()}`;
    const first = await publishToStream(nc, subject, data('once'), id, headers());
    const again = await publishToStream(nc, subject, data('once'), id, headers());
    expect(again).toEqual({ stream, seq: first.seq, duplicate: true });
    expect((await jsm.streams.info(stream)).state.last_seq).toBe(first.seq);
  });

  it('given JetStream refuses the message, then the publish fails with JetStream’s own description', async () => {
    const expectOther = headers();
    expectOther.set('Nats-Expected-Stream', 'SOME_OTHER_STREAM');
    await expect(publishToStream(nc, subject, data('refused'), `evt_${randomUUID()}`, expectOther)).rejects.toMatchObject({
      message: expect.stringMatching(/expected stream does not match/i),
      api_error: { description: expect.stringMatching(/expected stream does not match/i) },
    });
  });

  it('given a stream that discards new messages and is full, then the refusal reads as storage full', async () => {
    const full = streamName(`${namespace}f`, LEDGER_EVENTS_STREAM);
    const fullSubject = `${namespace}f.ledger.events.test.full`;
    await jsm.streams.add({ name: full, subjects: [fullSubject], max_bytes: 1024, discard: DiscardPolicy.New });
    try {
      await publishToStream(nc, fullSubject, Buffer.alloc(600, 1), `evt_${randomUUID()}`, headers());
      const refusal = await publishToStream(nc, fullSubject, Buffer.alloc(600, 1), `evt_${randomUUID()}`, headers()).catch((error: unknown) => error);
      expect(isStorageFull(refusal)).toBe(true);
    } finally {
      await jsm.streams.delete(full).catch(() => undefined);
    }
  });

  it('given no stream holds the subject, then the publish fails at once as having no responders', async () => {
    const failure = await publishToStream(nc, `${namespace}x.ledger.events.test.nowhere`, data('lost'), `evt_${randomUUID()}`, headers()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NatsError);
    expect((failure as NatsError).code).toBe(ErrorCode.NoResponders);
  });
});
