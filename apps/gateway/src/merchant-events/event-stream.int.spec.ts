import { randomUUID } from 'node:crypto';
import { type Event, CheckoutClient } from '@interac-checkout/node';
import { LEDGER_EVENTS_STREAM, MAX_PAGE_LIMIT } from '@pp/contracts';
import { connectNats, streamName } from '@pp/platform';
import { TestStack, waitFor } from '@pp/testing';
import type { NatsConnection } from 'nats';
import { publishPaymentConfirmed } from '../testing/published-event';

/*
 * GET /v1/events/stream is fed live from the ledger's JetStream stream. The
 * harness publishes events straight onto that stream, which the ledger's
 * durable log never sees: whatever of them the stream sends can only have
 * come from the feed. Real events reach it both ways and are sent once.
 */

interface Merchant {
  merchant_id: string;
  keys: { test_secret: string };
}

describe('GET /v1/events/stream, fed from JetStream', () => {
  let stack: TestStack;
  let harness: NatsConnection;
  let a: Merchant;
  let b: Merchant;

  const createMerchant = async (name: string): Promise<Merchant> => {
    const response = await fetch(`${stack.url('gateway')}/v1/admin/merchants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.env.ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ name, email: `${randomUUID()}@example.com` }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Merchant;
  };

  /**
   * Publishes an event onto the ledger's stream as the ledger's publisher would, without storing it in the ledger
   * (`extra` is added to its data).
   */
  const publishDirectly = (merchantId: string, livemode: boolean, reference: string, extra: Record<string, unknown> = {}): Promise<string> =>
    publishPaymentConfirmed(harness, stack.namespace, { merchantId, livemode }, reference, extra);

  /** Reads a stream in the background; `received` grows as events arrive. */
  const follow = (apiKey: string, params: { since?: string } = {}) => {
    const abort = new AbortController();
    const received: Event[] = [];
    const client = new CheckoutClient({ apiKey, apiBase: stack.url('gateway') });
    const done = (async () => {
      try {
        for await (const event of client.events.stream(params, { signal: abort.signal })) received.push(event);
      } catch (error) {
        if (!abort.signal.aborted) throw error;
      }
    })();
    return { received, close: () => (abort.abort(), done) };
  };

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['ledger'], label: 'evstream' });
    // The stack lays the stream out (as the migrate step does); the gateway then follows it from its start.
    for (const service of ['sessions', 'gateway'] as const) await stack.startService(service);
    harness = await connectNats(stack.env.NATS_URL, 'event-stream-spec');
    [a, b] = await Promise.all([createMerchant('A'), createMerchant('B')]);
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await stack?.stop();
  });

  /** A new test session, expired at once (its checkout.session.expired is the event): answers its id. */
  const expireNewSession = async (api: CheckoutClient, metadata?: Record<string, string>): Promise<string> => {
    const session = await api.checkoutSessions.create({
      amount: 1500,
      currency: 'cad',
      reference: `order-${randomUUID()}`,
      success_url: 'https://shop.example/ok',
      cancel_url: 'https://shop.example/cancel',
      ...(metadata ? { metadata } : {}),
    });
    await api.sandbox.expireSession({ sessionId: session.id });
    return session.id;
  };

  /** The consumers on the ledger's stream (this stack runs no webhooks service, so any is the gateway's feed). */
  const feedConsumers = async () => {
    const jsm = await harness.jetstreamManager();
    return (await jsm.consumers.list(streamName(stack.namespace, LEDGER_EVENTS_STREAM)).next()).length;
  };

  it('sends the merchant’s own events from the stream as they are published, and nothing of another merchant or mode', async () => {
    // No stream open yet: the gateway follows nothing.
    expect(await feedConsumers()).toBe(0);
    const stream = follow(a.keys.test_secret);
    try {
      // A probe proves the feed is following (it starts a moment after the gateway answers HTTP).
      const probes = new Set<string>();
      await waitFor('the stream to send a probe published on JetStream', async () => {
        if (stream.received.some((event) => probes.has(event.id))) return true;
        probes.add(await publishDirectly(a.merchant_id, false, 'probe'));
        return false;
      }, { timeoutMs: 20_000, intervalMs: 500 });
      const before = stream.received.length;

      await publishDirectly(b.merchant_id, false, 'other merchant');
      await publishDirectly(a.merchant_id, true, 'other mode');
      const mine = await publishDirectly(a.merchant_id, false, 'mine');
      await waitFor('the merchant’s own event', () => stream.received.some((event) => event.id === mine));

      expect(stream.received.slice(before).map((event) => event.data.reference)).toEqual(['mine']);
    } finally {
      await stream.close();
    }
  });

  it('sends a real event once, though both the feed and the durable log have it', async () => {
    const stream = follow(a.keys.test_secret);
    try {
      const sessionId = await expireNewSession(new CheckoutClient({ apiKey: a.keys.test_secret, apiBase: stack.url('gateway') }));
      await waitFor('checkout.session.expired on the stream', () => stream.received.some((event) => event.data.session_id === sessionId), { timeoutMs: 15_000 });
      // Anything sent after the marker was sent after the expiry; the expiry must not be among it again.
      const marker = await publishDirectly(a.merchant_id, false, 'marker');
      await waitFor('the marker', () => stream.received.some((event) => event.id === marker));
      const expired = stream.received.filter((event) => event.data.session_id === sessionId);
      expect(expired.map((event) => event.type)).toEqual(['checkout.session.expired']);
    } finally {
      await stream.close();
    }
  });

  /** A test-mode key of merchant A (or another), issued for one test (so revoking it or filling its streams touches no other). */
  const issueKey = async (merchantId = a.merchant_id, spec: { rate_limit_per_second?: number } = {}): Promise<{ id: string; key: string }> => {
    const response = await fetch(`${stack.url('gateway')}/v1/admin/merchants/${merchantId}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.env.ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ type: 'secret', livemode: false, ...spec }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; key: string };
  };

  /** The stream read as raw text, as any SSE client would (no reconnection). */
  const rawStream = async (apiKey: string) => {
    const abort = new AbortController();
    const response = await fetch(`${stack.url('gateway')}/v1/events/stream`, { headers: { authorization: `Bearer ${apiKey}` }, signal: abort.signal });
    let text = '';
    const ended = (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of response.body ?? []) text += decoder.decode(chunk, { stream: true });
      } catch {
        // aborted by close()
      }
    })();
    return { status: response.status, text: () => text, ended, close: () => (abort.abort(), ended) };
  };

  it('ends an open stream once its key is revoked, sending nothing after, and refuses to open it again', async () => {
    const issued = await issueKey();
    const stream = await rawStream(issued.key);
    try {
      expect(stream.status).toBe(200);
      const probes = new Set<string>();
      await waitFor('the stream to send a probe published on JetStream', async () => {
        if ([...probes].some((id) => stream.text().includes(id))) return true;
        probes.add(await publishDirectly(a.merchant_id, false, 'probe'));
        return false;
      }, { timeoutMs: 20_000, intervalMs: 500 });

      const revoked = await fetch(`${stack.url('gateway')}/v1/admin/keys/${issued.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${stack.env.ADMIN_TOKEN}` } });
      expect(revoked.status).toBe(200);
      // Once the gateway refuses the key on a new request, its cache has let the key go.
      await waitFor('the gateway to refuse the revoked key', async () => (await fetch(`${stack.url('gateway')}/v1/payments`, { headers: { authorization: `Bearer ${issued.key}` } })).status === 401);
      const after = await publishDirectly(a.merchant_id, false, 'after the revocation');
      await Promise.race([stream.ended, new Promise((_, reject) => setTimeout(() => reject(new Error('the stream is still open 15 s after the revocation')), 15_000))]);
      expect(stream.text()).not.toContain(after);
      expect((await rawStream(issued.key)).status).toBe(401);
    } finally {
      await stream.close();
    }
  });

  /**
   * The stream read one frame at a time, and no further than asked: what the client has not asked for stays in the
   * TCP buffers, and once they are full the gateway's writes wait for it (backpressure), as for any slow reader.
   */
  const frameReader = async (apiKey: string) => {
    const abort = new AbortController();
    const response = await fetch(`${stack.url('gateway')}/v1/events/stream`, { headers: { authorization: `Bearer ${apiKey}` }, signal: abort.signal });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    let searchedTo = 0;
    let ended = false;
    /** The id of the next frame (comments and the retry line skipped); undefined once the gateway has ended the stream. */
    const nextFrame = async (): Promise<string | undefined> => {
      for (;;) {
        const end = buffered.indexOf('\n\n', searchedTo);
        if (end >= 0) {
          const frame = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          searchedTo = 0;
          const id = /^id: (.+)$/m.exec(frame)?.[1];
          if (id) return id;
          continue;
        }
        searchedTo = Math.max(0, buffered.length - 1);
        if (ended) return undefined;
        const chunk = await reader.read();
        if (chunk.done) ended = true;
        else buffered += decoder.decode(chunk.value, { stream: true });
      }
    };
    return { status: response.status, nextFrame, close: () => abort.abort() };
  };

  it('ends a stream whose key is revoked while it drains a batch of events to a slow reader, before the next frame', async () => {
    // A merchant of its own: the stream has nothing to send but what this test publishes.
    const merchant = await createMerchant('Revoked mid-drain');
    const issued = await issueKey(merchant.merchant_id);
    // Frames of some 600 KB (under NATS's 1 MB max_payload): the TCP buffers between gateway and reader (some 4 MB over
    // loopback) hold a handful of them, far fewer than are published, so the gateway must wait for the reader mid-batch.
    const padding = 'x'.repeat(600_000);
    const EVENTS = 48; // under the 50 live events a stream keeps while busy, so none is left to the (empty) log
    const READ_BEFORE_REVOKING = 20;

    // The slow reader opens first: its listener is then on the feed before the observer's, so every event dispatched
    // to the observer (which reads at once, on another key) has been handed to the slow reader's stream too.
    const slow = await frameReader(issued.key);
    const observer = await frameReader(merchant.keys.test_secret);
    const observed = new Set<string>();
    const observing = (async () => {
      for (let id = await observer.nextFrame(); id !== undefined; id = await observer.nextFrame()) observed.add(id);
    })().catch(() => undefined);
    const received: string[] = [];
    try {
      expect([slow.status, observer.status]).toEqual([200, 200]);
      const probes = new Set<string>();
      await waitFor('the feed to send a probe published on JetStream', async () => {
        if ([...probes].some((id) => observed.has(id))) return true;
        probes.add(await publishDirectly(merchant.merchant_id, false, 'probe'));
        return false;
      }, { timeoutMs: 20_000, intervalMs: 500 });

      // The slow reader reads nothing meanwhile: its stream fills the buffers and waits, and the events published
      // after that reach it as one batch, taken when the reader reads again.
      const published: string[] = [];
      for (let i = 0; i < EVENTS; i++) published.push(await publishDirectly(merchant.merchant_id, false, `batch ${i}`, { padding }));
      await waitFor('the observer to receive every event of the batch', () => observed.has(published[EVENTS - 1]), { timeoutMs: 30_000 });

      const readFrame = async () => {
        const id = await slow.nextFrame();
        if (id !== undefined && !probes.has(id)) received.push(id);
        return id;
      };
      while (received.length < READ_BEFORE_REVOKING) expect(await readFrame()).toBeDefined();

      // Revoked as the API revokes (the admin route: the revoking statement's pg_notify, and this gateway's caches
      // cleared before it answers); it has taken effect once the gateway refuses the key on a new request.
      const revoked = await fetch(`${stack.url('gateway')}/v1/admin/keys/${issued.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${stack.env.ADMIN_TOKEN}` } });
      expect(revoked.status).toBe(200);
      await waitFor('the gateway to refuse the revoked key', async () => (await fetch(`${stack.url('gateway')}/v1/payments`, { headers: { authorization: `Bearer ${issued.key}` } })).status === 401);
      const after = await publishDirectly(merchant.merchant_id, false, 'after the revocation');

      // The reader reads on: what it gets now was already written when the revocation took effect (in the TCP
      // buffers), and the gateway, asked for more room, ends the stream rather than write the batch's next frame.
      const readToTheEnd = async () => {
        while ((await readFrame()) !== undefined);
      };
      let timer: NodeJS.Timeout | undefined;
      const stillOpen = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('the stream is still open 15 s after the revocation')), 15_000)));
      try {
        await Promise.race([readToTheEnd(), stillOpen]);
      } finally {
        clearTimeout(timer);
      }

      // Frames in publication order, none skipped, then nothing of the rest of the batch (all of it would have come had
      // the gateway checked the key only between batches) nor anything published since.
      expect(received).toEqual(published.slice(0, received.length));
      expect(received.length).toBeLessThan(EVENTS);
      expect(received).not.toContain(after);
    } finally {
      slow.close();
      observer.close();
      await observing;
    }
  }, 90_000);

  it('refuses types that are no merchant event type, as GET /v1/events?type= does, rather than streaming nothing', async () => {
    /** The answer's status and body; an opened stream is closed at once, its body being endless. */
    const answer = async (path: string) => {
      const abort = new AbortController();
      const response = await fetch(`${stack.url('gateway')}${path}`, { headers: { authorization: `Bearer ${a.keys.test_secret}` }, signal: abort.signal });
      if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
        abort.abort();
        return { status: response.status, body: 'a stream' };
      }
      return { status: response.status, body: await response.json() };
    };
    for (const types of ['payment.confirmd', 'payment.confirmed,payment.refundd', 'session.created']) {
      const refused = { types, status: 400, body: { error: 'Invalid query parameters' } };
      expect({ types, ...(await answer(`/v1/events/stream?types=${types}`)) }).toEqual(refused);
      expect({ types, ...(await answer(`/v1/events?type=${types}`)) }).toEqual(refused);
    }
  });

  it('keeps a stream filtered by type alive while only other types of event pass, so proxies do not cut it', async () => {
    const issued = await issueKey();
    const abort = new AbortController();
    const response = await fetch(`${stack.url('gateway')}/v1/events/stream?types=payment.refunded`, { headers: { authorization: `Bearer ${issued.key}` }, signal: abort.signal });
    let text = '';
    const reading = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of response.body ?? []) text += decoder.decode(chunk, { stream: true });
    })().catch(() => undefined);
    try {
      expect(response.status).toBe(200);
      // Events the filter drops, more often than the 15 s heartbeat: none of them is a byte on the wire.
      const started = Date.now();
      while (!text.includes(': keep-alive') && Date.now() - started < 25_000) {
        await publishDirectly(a.merchant_id, false, 'filtered out');
        await new Promise((resolve) => setTimeout(resolve, 2000));
      }
      expect(text).toContain(': keep-alive');
      expect(text).not.toContain('filtered out');
    } finally {
      abort.abort();
      await reading;
    }
  }, 40_000);

  it('holds at most 10 open streams for one key, and opens another once one closes', async () => {
    const issued = await issueKey();
    const open = [];
    try {
      for (let i = 0; i < 10; i++) open.push(await rawStream(issued.key));
      expect(open.map((stream) => stream.status)).toEqual(Array(10).fill(200));
      const refused = await rawStream(issued.key);
      expect(refused.status).toBe(429);
      await refused.ended;
      expect(JSON.parse(refused.text())).toEqual({ error: expect.stringContaining('already holds 10 open event streams') });
      // Another key of the same merchant is not held back by this one's streams.
      const other = await rawStream(a.keys.test_secret);
      expect(other.status).toBe(200);
      await other.close();

      await open.shift()!.close();
      const reopened = await waitFor('a stream to open once one closed', async () => {
        const attempt = await rawStream(issued.key);
        if (attempt.status === 200) return attempt;
        await attempt.close();
        return undefined;
      });
      open.push(reopened);
    } finally {
      await Promise.all(open.map((stream) => stream.close()));
    }
  });

  it('catches up a log of several pages from since=start, sending every event once and in log order', async () => {
    const merchant = await createMerchant('Catching up');
    const key = (await issueKey(merchant.merchant_id, { rate_limit_per_second: 1000 })).key;
    const api = new CheckoutClient({ apiKey: key, apiBase: stack.url('gateway') });
    // Near the largest metadata (8 KB), which every event of the session carries: a page is then some 400 KB.
    const metadata = Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`note_${i}`, 'x'.repeat(500)]));
    const expireOne = () => expireNewSession(api, metadata);
    const EVENTS = 2 * MAX_PAGE_LIMIT + 20;
    for (let made = 0; made < EVENTS; made += 20) await Promise.all(Array.from({ length: 20 }, expireOne));
    const logged = (await api.events.list({ limit: MAX_PAGE_LIMIT }).toArray()).reverse().map((event) => event.id);
    expect(logged).toHaveLength(EVENTS);

    const stream = follow(key, { since: 'start' });
    try {
      await waitFor('the stream to catch up the log', () => stream.received.length >= EVENTS, { timeoutMs: 30_000 });
      // Anything the catch-up sent twice would come before an event that happened after it.
      const marker = await expireOne();
      await waitFor('the event after the catch-up', () => stream.received.some((event) => event.data.session_id === marker));
      const received = stream.received.map((event) => event.id);
      expect(received.slice(0, EVENTS)).toEqual(logged);
      expect(received).toHaveLength(EVENTS + 1);
    } finally {
      await stream.close();
    }
  });

  it('given events logged seconds before, a stream opened without since sends none of them, only what happens after it opened', async () => {
    const merchant = await createMerchant('From now');
    const key = (await issueKey(merchant.merchant_id, { rate_limit_per_second: 1000 })).key;
    const api = new CheckoutClient({ apiKey: key, apiBase: stack.url('gateway') });
    const before = new Set<string>();
    for (let i = 0; i < 3; i++) before.add(await expireNewSession(api));

    const stream = follow(key);
    try {
      // Probes until one arrives: those made before the stream took its starting place count as logged before it.
      const probes = new Set<string>();
      await waitFor('a probe made after the stream opened', async () => {
        if (stream.received.some((event) => probes.has(event.data.session_id as string))) return true;
        probes.add(await expireNewSession(api));
        return false;
      }, { timeoutMs: 20_000, intervalMs: 500 });
      const sent = stream.received.map((event) => event.data.session_id as string);
      expect(sent.filter((sessionId) => before.has(sessionId))).toEqual([]);
      expect(sent.every((sessionId) => probes.has(sessionId))).toBe(true);
    } finally {
      await stream.close();
    }
  });

  it('stops following once the last stream has closed', async () => {
    await waitFor('the feed’s consumer to go', async () => (await feedConsumers()) === 0, { timeoutMs: 30_000, intervalMs: 500 });
  });
});
