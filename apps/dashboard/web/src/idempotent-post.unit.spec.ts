import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { idempotentPoster, type PosterParts } from './idempotent-post';
import { memoryStore, tabStore, UNSETTLED_STORAGE_NAME } from './unsettled-store';

/** The page's fetch: answers each POST with the next status, and keeps what was sent. */
function fakeServer(statuses: number[]) {
  const sent: Array<{ path: string; key: string | undefined }> = [];
  const fetch = async (path: string, init: { headers: Record<string, string> }) => {
    sent.push({ path, key: init.headers['Idempotency-Key'] });
    const status = statuses.shift() ?? 200;
    return new Response(JSON.stringify(status < 400 ? { secret: `whsec_${sent.length}` } : { error: 'Service unavailable' }), { status });
  };
  return { sent, fetch };
}

/** A tab's sessionStorage: what a reload of the page finds again. */
function fakeSessionStorage(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (name: string) => items.get(name) ?? null,
    setItem: (name: string, value: string) => void items.set(name, value),
    removeItem: (name: string) => void items.delete(name),
    clear: () => items.clear(),
    key: (index: number) => [...items.keys()][index] ?? null,
    get length() {
      return items.size;
    },
  };
}

describe('the Idempotency-Key of a POST the web app retries', () => {
  const realFetch = globalThis.fetch;
  let made = 0;
  const newKey = () => `key-${++made}`;
  let server: ReturnType<typeof fakeServer>;
  let storage: Storage;
  /** A page of the tab: a reload makes another, over the same storage. */
  const page = (parts: PosterParts = {}) => idempotentPoster({ newKey, store: tabStore(storage), ...parts });
  const answer = (statuses: number[]) => {
    server = fakeServer(statuses);
    globalThis.fetch = server.fetch as unknown as typeof fetch;
  };

  beforeEach(() => {
    made = 0;
    storage = fakeSessionStorage();
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  const endpoints = '/api/developers/webhook-endpoints?mode=test';
  const rotate = (endpoint: string) => `/api/developers/webhook-endpoints/${endpoint}/rotate-secret?mode=test`;

  it('given endpoint A’s creation lost (503), when endpoint B is created and then A is retried, then the retry sends A’s first key (one A)', async () => {
    answer([503, 201, 201]);
    const post = page();
    await expect(post(endpoints, { url: 'https://a.example/hook' })).rejects.toMatchObject({ status: 503 });
    await post(endpoints, { url: 'https://b.example/hook' });
    await post(endpoints, { url: 'https://a.example/hook' });
    expect(server.sent.map(({ key }) => key)).toEqual(['key-1', 'key-2', 'key-1']);
  });

  it('given an API key’s creation lost, when the page is reloaded and the key created again, then the retry sends the first key', async () => {
    answer([503, 201]);
    await expect(page()(`/api/developers/keys?mode=live`, { type: 'secret' })).rejects.toMatchObject({ status: 503 });
    await page()(`/api/developers/keys?mode=live`, { type: 'secret' });
    expect(server.sent.map(({ key }) => key)).toEqual(['key-1', 'key-1']);
    expect(storage.getItem(UNSETTLED_STORAGE_NAME)).toBeNull(); // settled, so forgotten
  });

  it('given an unsettled submission, then the tab’s storage holds its fingerprint and key, never its input', async () => {
    answer([503]);
    const token = 'tok-9f8e7d';
    await expect(page()(endpoints, { url: `https://a.example/hook?token=${token}` })).rejects.toMatchObject({ status: 503 });
    const stored = storage.getItem(UNSETTLED_STORAGE_NAME)!;
    expect(JSON.parse(stored)).toEqual([{ changes: null, fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/), key: 'key-1', sent_at: expect.any(Number) }]);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('a.example');
  });

  it('given endpoint A’s rotation lost (503), when endpoint B is rotated and then A is retried, then the retry sends A’s first key (rotating A once)', async () => {
    answer([503, 200, 200]);
    const post = page();
    await expect(post(rotate('we_a'), {}, 'we_a')).rejects.toMatchObject({ status: 503 });
    await post(rotate('we_b'), {}, 'we_b');
    await post(rotate('we_a'), {}, 'we_a');
    expect(server.sent).toEqual([
      { path: rotate('we_a'), key: 'key-1' },
      { path: rotate('we_b'), key: 'key-2' },
      { path: rotate('we_a'), key: 'key-1' },
    ]);
  });

  it('given a simulation on session X lost, when session Y is simulated and then X retried, then the retry sends X’s first key (one payment on X)', async () => {
    answer([503, 200, 200]);
    const post = page();
    const simulate = (session: string) => post('/api/sandbox/simulate', { session_id: session, outcome: 'failed' });
    await expect(simulate('cs_x')).rejects.toMatchObject({ status: 503 });
    await simulate('cs_y');
    await simulate('cs_x');
    expect(server.sent.map(({ key }) => key)).toEqual(['key-1', 'key-2', 'key-1']);
  });

  it('given a submission settled (answered, or refused with a 4xx), or its input changed, then the next one is a new action with a new key', async () => {
    answer([200, 200, 409, 409, 503, 200, 200]);
    const post = page();
    await post(rotate('we_a'), {}, 'we_a');
    await post(rotate('we_a'), {}, 'we_a');
    await expect(post(rotate('we_a'), {}, 'we_a')).rejects.toMatchObject({ status: 409 });
    await expect(post(rotate('we_a'), {}, 'we_a')).rejects.toMatchObject({ status: 409 });
    await expect(post(rotate('we_a'), {}, 'we_a')).rejects.toMatchObject({ status: 503 });
    await post(rotate('we_a'), { previous_secret_expires_in: 0 }, 'we_a');
    // The "rotate now" answered settled the lost rotation of A: a rotation now is a new one, never the first one's old secret.
    await post(rotate('we_a'), {}, 'we_a');
    expect(server.sent.map(({ key }) => key)).toEqual(['key-1', 'key-2', 'key-3', 'key-4', 'key-5', 'key-6', 'key-7']);
  });

  it('given a browser without crypto.subtle (a page over plain http), then the page’s memory keeps the unsettled submission, and storage nothing', async () => {
    const realCrypto = Object.getOwnPropertyDescriptor(globalThis, 'crypto')!;
    Object.defineProperty(globalThis, 'crypto', { value: { getRandomValues: crypto.getRandomValues.bind(crypto) }, configurable: true });
    try {
      answer([503, 201, 201]);
      const post = page({ memory: memoryStore() });
      await expect(post(endpoints, { url: 'https://a.example/hook' })).rejects.toMatchObject({ status: 503 });
      expect(storage.length).toBe(0);
      await post(endpoints, { url: 'https://b.example/hook' });
      await post(endpoints, { url: 'https://a.example/hook' });
      expect(server.sent.map(({ key }) => key)).toEqual(['key-1', 'key-2', 'key-1']);
    } finally {
      Object.defineProperty(globalThis, 'crypto', realCrypto);
    }
  });
});
