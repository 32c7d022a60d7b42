import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { idempotentPoster } from './idempotent-post';

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

describe('the Idempotency-Key of a POST the web app retries', () => {
  const realFetch = globalThis.fetch;
  let made = 0;
  const newKey = () => `key-${++made}`;
  let server: ReturnType<typeof fakeServer>;
  const answer = (statuses: number[]) => {
    server = fakeServer(statuses);
    globalThis.fetch = server.fetch as unknown as typeof fetch;
  };

  beforeEach(() => {
    made = 0;
  });
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  const rotate = (endpoint: string) => `/api/developers/webhook-endpoints/${endpoint}/rotate-secret?mode=test`;

  it('given endpoint A’s rotation lost (503), when endpoint B is rotated and then A is retried, then the retry sends A’s first key (rotating A once)', async () => {
    answer([503, 200, 200]);
    const post = idempotentPoster(newKey);
    await expect(post(rotate('we_a'), {})).rejects.toMatchObject({ status: 503 });
    await post(rotate('we_b'), {});
    await post(rotate('we_a'), {});
    expect(server.sent).toEqual([
      { path: rotate('we_a'), key: 'key-1' },
      { path: rotate('we_b'), key: 'key-2' },
      { path: rotate('we_a'), key: 'key-1' },
    ]);
  });

  it('given a simulation on session X lost, when session Y is simulated and then X retried, then the retry sends X’s first key (one payment on X)', async () => {
    answer([503, 200, 200]);
    const post = idempotentPoster(newKey);
    const simulate = (session: string) => post('/api/sandbox/simulate', { session_id: session, outcome: 'failed' }, session);
    await expect(simulate('cs_x')).rejects.toMatchObject({ status: 503 });
    await simulate('cs_y');
    await simulate('cs_x');
    expect(server.sent.map(({ key }) => key)).toEqual(['key-1', 'key-2', 'key-1']);
  });

  it('given a submission settled (answered, or refused with a 4xx), or its input changed, then the next one is a new action with a new key', async () => {
    answer([200, 200, 409, 409, 503, 200]);
    const post = idempotentPoster(newKey);
    await post(rotate('we_a'), {});
    await post(rotate('we_a'), {});
    await expect(post(rotate('we_a'), {})).rejects.toMatchObject({ status: 409 });
    await expect(post(rotate('we_a'), {})).rejects.toMatchObject({ status: 409 });
    await expect(post(rotate('we_a'), {})).rejects.toMatchObject({ status: 503 });
    await post(rotate('we_a'), { previous_secret_expires_in: 0 });
    expect(server.sent.map(({ key }) => key)).toEqual(['key-1', 'key-2', 'key-3', 'key-4', 'key-5', 'key-6']);
  });
});
