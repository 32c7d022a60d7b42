import { ErrorCode, headers, type NatsConnection, NatsError } from 'nats';
import { ReplyInbox } from './reply-inbox';
import { openSpecConnection, specSubject } from './testing/spec-nats';

describe('ReplyInbox', () => {
  let requester: NatsConnection;
  let responder: NatsConnection;
  const bytes = (text: string) => Buffer.from(text);
  const text = (data: Uint8Array) => Buffer.from(data).toString('utf8');

  beforeAll(async () => {
    requester = await openSpecConnection('reply-inbox-spec');
    responder = await openSpecConnection('reply-inbox-spec');
  });
  afterAll(async () => {
    await Promise.all([requester?.close(), responder?.close()]);
  });

  it('given a responder, when many requests are in flight at once, then each gets its own reply, with the headers sent', async () => {
    const echo = specSubject('echo');
    responder.subscribe(echo, {
      callback: (_error, msg) => {
        // Answer out of order: the later request first, so a mix-up of tokens would show.
        setTimeout(() => msg.respond(bytes(`${text(msg.data)}:${msg.headers?.get('x-request-id')}`)), 20 - Number(text(msg.data)));
      },
    });
    await responder.flush();
    const inbox = ReplyInbox.of(requester);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const h = headers();
        h.set('x-request-id', `req-${i}`);
        return inbox.request(echo, bytes(String(i)), h, 5000);
      }),
    );
    expect(replies.map((reply) => text(reply.data))).toEqual(Array.from({ length: 20 }, (_, i) => `${i}:req-${i}`));
  });

  it('given a responder that saw one reply subject and answers the ones it guesses next, then a waiting request still gets only its genuine reply', async () => {
    const seen = specSubject('seen');
    const slow = specSubject('slow');
    let observed = '';
    responder.subscribe(seen, { callback: (_error, msg) => ((observed = msg.reply ?? ''), msg.respond(bytes('seen'))) });
    // The genuine service answers after the forger has had its go.
    responder.subscribe(slow, { callback: (_error, msg) => setTimeout(() => msg.respond(bytes('genuine')), 200) });
    await responder.flush();
    const inbox = ReplyInbox.of(requester);
    await inbox.request(seen, bytes(''), undefined, 5000);
    const waiting = inbox.request(slow, bytes(''), undefined, 5000);
    const base = observed.slice(0, observed.lastIndexOf('.') + 1);
    const token = observed.slice(base.length);
    // Tokens of a counter, in any base a responder might guess, around the one it saw.
    const guesses = new Set<string>();
    for (const radix of [10, 16, 36]) {
      const seenNumber = parseInt(token, radix);
      for (let next = 0; next < 50; next++) guesses.add((Number.isNaN(seenNumber) ? next : seenNumber + next).toString(radix));
    }
    for (const guess of guesses) responder.publish(base + guess, bytes('forged'));
    await responder.flush();

    expect(text((await waiting).data)).toBe('genuine');
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('given the same connection, then every caller shares one inbox', () => {
    expect(ReplyInbox.of(requester)).toBe(ReplyInbox.of(requester));
  });

  it('given nobody subscribed to the subject, then the request fails at once as having no responders', async () => {
    const started = Date.now();
    const failure = await ReplyInbox.of(requester).request(specSubject('nobody'), bytes('{}'), undefined, 5000).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NatsError);
    expect((failure as NatsError).code).toBe(ErrorCode.NoResponders);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('given a responder that never answers, then the request fails as timed out after its deadline, and a late reply is dropped', async () => {
    const silent = specSubject('silent');
    const late: Array<() => void> = [];
    responder.subscribe(silent, { callback: (_error, msg) => late.push(() => msg.respond(bytes('too late'))) });
    await responder.flush();
    const started = Date.now();
    const failure = await ReplyInbox.of(requester).request(silent, bytes('{}'), undefined, 300).catch((error: unknown) => error);
    expect((failure as NatsError).code).toBe(ErrorCode.Timeout);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);

    late.forEach((answer) => answer());
    await responder.flush();
    const echo = specSubject('after');
    responder.subscribe(echo, { callback: (_error, msg) => msg.respond(msg.data) });
    await responder.flush();
    // The late reply changed nothing: the inbox still pairs each reply with its own request.
    expect(text((await ReplyInbox.of(requester).request(echo, bytes('next'), undefined, 5000)).data)).toBe('next');
  });

  it('given the connection closes with a request in flight, then that request fails as closed instead of waiting for its deadline', async () => {
    const own = await openSpecConnection('reply-inbox-spec');
    const silent = specSubject('closing');
    responder.subscribe(silent, { callback: () => undefined });
    await responder.flush();
    const pending = ReplyInbox.of(own).request(silent, bytes('{}'), undefined, 30_000).catch((error: unknown) => error);
    await own.flush();
    await own.close();
    expect(((await pending) as NatsError).code).toBe(ErrorCode.ConnectionClosed);
  });

  it('given a deadline longer than Node’s timers take, then the request is still waiting for its answer after 50 ms', async () => {
    const own = await openSpecConnection('reply-inbox-spec');
    const silent = specSubject('patient');
    responder.subscribe(silent, { callback: () => undefined });
    await responder.flush();
    const pending = ReplyInbox.of(own).request(silent, bytes('{}'), undefined, 2 ** 31).catch((error: unknown) => error);
    const first = await Promise.race([pending, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 50))]);
    expect(first).toBe('still waiting');
    await own.close(); // ends the request, and with it its timer
    expect(((await pending) as NatsError).code).toBe(ErrorCode.ConnectionClosed);
  });
});
