import { randomBytes } from 'node:crypto';
import { DomainError, ErrorCode, type Subject } from '@pp/contracts';
import { connect, type Msg, type NatsConnection } from 'nats';
import { requestContext } from '../logging/request-context';
import { BusMetrics } from '../metrics/bus-metrics';
import { ServiceMetrics } from '../metrics/service-metrics';
import { BusClient } from './bus-client';
import { BusHeader } from './bus-headers';
import { NatsBusServer } from './nats-bus-server';
import { natsConnectionOptions } from './nats-connection-options';
import { REQUEST_REPLY_ACCESS } from './served-subjects';

/** The project's NATS server under the harness's identity (libs/platform cannot import @pp/testing, which reads the same variable). */
const natsUrl = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** What the spec's handler is asked to do with one request. */
interface Ask {
  n: number;
  waitMs?: number;
  fail?: 'conflict' | 'internal';
}

/** One of the refunds service's subjects, served here by a handler that does what each request asks. */
const SUBJECT = 'refunds.request.v1' as Subject;

describe('requests to one subject in one turn travel as one message (RequestCoalescer and NatsBusServer)', () => {
  let clientConnection: NatsConnection;
  let serverConnection: NatsConnection;
  let server: NatsBusServer;
  let bus: BusClient;
  /** Every message that reached the server's subject: whether it was a batch, and of how many. */
  const seen: Array<string | undefined> = [];
  const prefix = `batch${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    clientConnection = await connect({ ...natsConnectionOptions(natsUrl, 'batched-requests-spec'), reconnect: false });
    serverConnection = await connect({ ...natsConnectionOptions(natsUrl, 'batched-requests-spec'), reconnect: false });
    serverConnection.subscribe(`${prefix}.${SUBJECT}`, { callback: (_error, msg: Msg) => seen.push(msg.headers?.get(BusHeader.Batch) || undefined) });
    server = new NatsBusServer({ nc: serverConnection, prefix, service: 'refunds', metrics: new BusMetrics(new ServiceMetrics('refunds', { processMetrics: false })) });
    for (const [subject, access] of Object.entries(REQUEST_REPLY_ACCESS)) {
      if (access.servedBy === 'refunds') server.addHandler(subject, async (ask: Ask) => answer(ask), false);
    }
    await new Promise<void>((resolve, reject) => server.listen((error) => (error ? reject(error) : resolve())));
    await serverConnection.flush();
    bus = new BusClient(clientConnection, prefix, 5_000);
  });

  afterAll(async () => {
    await server?.close();
    await Promise.all([clientConnection?.close(), serverConnection?.close()]);
  });

  beforeEach(() => {
    seen.length = 0;
  });

  const request = (ask: Ask, timeoutMs?: number) => bus.request(SUBJECT, ask as never, { timeoutMs }) as Promise<unknown>;

  it('given requests made in the same turn, when they are sent, then one message carries them and each caller gets its own answer and request id', async () => {
    const asks = Array.from({ length: 10 }, (_, n) => ({ n, waitMs: (10 - n) * 3 })); // the last finishes first
    const answers = await Promise.all(asks.map((ask) => requestContext.run({ requestId: `req-${ask.n}` }, () => request(ask))));
    expect(answers).toEqual(asks.map((ask) => ({ n: ask.n, requestId: `req-${ask.n}` })));
    expect(seen).toEqual(['10']);
  });

  it('given a request alone in its turn, then it goes as a plain message', async () => {
    await expect(request({ n: 1 })).resolves.toMatchObject({ n: 1 });
    expect(seen).toEqual([undefined]);
  });

  it('given one slow request in a batch, then the others are answered without waiting for it', async () => {
    const started = Date.now();
    const answeredAfter = (ask: Ask) => request(ask).then(() => Date.now() - started);
    const [slow, ...fast] = await Promise.all([answeredAfter({ n: 0, waitMs: 1_500 }), answeredAfter({ n: 1 }), answeredAfter({ n: 2 })]);
    expect(slow).toBeGreaterThanOrEqual(1_500);
    expect(Math.max(...fast)).toBeLessThan(750);
    expect(seen).toEqual(['3']);
  });

  it('given refusals and faults in a batch, then each fails with its own error and the others succeed', async () => {
    const outcomes = await Promise.allSettled([request({ n: 0, fail: 'conflict' }), request({ n: 1 }), request({ n: 2, fail: 'internal' })]);
    expect(outcomes[0]).toMatchObject({ status: 'rejected', reason: { code: ErrorCode.Conflict, message: 'conflict 0' } });
    expect(outcomes[1]).toMatchObject({ status: 'fulfilled', value: { n: 1 } });
    expect(outcomes[2]).toMatchObject({ status: 'rejected', reason: { code: ErrorCode.Internal, message: 'Internal error' } });
  });

  it('given a request with a shorter deadline in a batch, then it times out alone and the others are answered', async () => {
    const outcomes = await Promise.allSettled([request({ n: 0, waitMs: 400 }, 150), request({ n: 1, waitMs: 400 }, 2_000)]);
    expect(outcomes[0]).toMatchObject({ status: 'rejected', reason: { code: ErrorCode.ServiceUnavailable, message: `${SUBJECT} did not answer within 150 ms` } });
    expect(outcomes[1]).toMatchObject({ status: 'fulfilled', value: { n: 1 } });
  });

  it('given nobody serves the subject, then every request of the batch fails at once as unavailable', async () => {
    const absent = new BusClient(clientConnection, `${prefix}x`, 5_000);
    const outcomes = await Promise.allSettled([1, 2].map((n) => absent.request(SUBJECT, { n } as never)));
    expect(outcomes.map((outcome) => (outcome.status === 'rejected' ? (outcome.reason as DomainError).message : 'answered'))).toEqual([
      `No service is answering ${SUBJECT}`,
      `No service is answering ${SUBJECT}`,
    ]);
  });
});

async function answer(ask: Ask): Promise<unknown> {
  if (ask.waitMs) await new Promise((resolve) => setTimeout(resolve, ask.waitMs));
  if (ask.fail === 'conflict') throw new DomainError(ErrorCode.Conflict, `conflict ${ask.n}`);
  if (ask.fail === 'internal') throw new Error(`fault ${ask.n}`);
  return { n: ask.n, requestId: requestContext.current()?.requestId };
}
