import { POD_READINESS_REUSE_MS } from '@pp/platform';
import { startStackWithFreezableRedis, type StackWithFreezableRedis, waitFor } from '@pp/testing';

/*
 * The web apps' per-pod readiness (GET /healthz/ready), which the Kubernetes readiness probes call: a dashboard
 * replica whose Redis stops answering leaves rotation while it stays alive (/healthz), and comes back when Redis does;
 * a gateway replica stays in rotation, as it serves without Redis (degraded: docs/OPERATIONS.md), where every replica
 * leaving at once, Redis being one for all, made an outage of it. Other services are none of an app's concern (the
 * gateway, sessions and ledger alone run here, and it is ready). Real gateway, checkout and dashboard, with Redis
 * behind a relay the test can freeze.
 */
describe('a web app replica’s own readiness', () => {
  let frozen: StackWithFreezableRedis;

  beforeAll(async () => {
    frozen = await startStackWithFreezableRedis({ services: ['gateway', 'checkout', 'dashboard', 'sessions', 'ledger'], label: 'podreadiness' });
  });
  afterAll(() => frozen?.stop());

  const probe = async (app: 'gateway' | 'checkout' | 'dashboard', path: string) => {
    const response = await fetch(`${frozen.stack.url(app)}${path}`);
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it('given its dependencies answer, then every web app is ready, with other services down and nothing but up or down said', async () => {
    for (const app of ['gateway', 'checkout', 'dashboard'] as const) {
      expect(await probe(app, '/healthz/ready')).toEqual({ status: 200, body: { status: 'up' } });
    }
  });

  it('given Redis stops answering, then the dashboard is not ready but alive, the gateway stays ready, and the dashboard is ready again once Redis answers', async () => {
    frozen.redis.freeze();
    try {
      await waitFor('the dashboard to leave rotation', async () => (await probe('dashboard', '/healthz/ready')).status === 503, { timeoutMs: 10_000 });
      expect(await probe('dashboard', '/healthz/ready')).toEqual({ status: 503, body: { status: 'down' } });
      expect((await probe('dashboard', '/healthz')).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, POD_READINESS_REUSE_MS)); // past any answer given before the freeze
      expect(await probe('gateway', '/healthz/ready')).toEqual({ status: 200, body: { status: 'up' } });
    } finally {
      frozen.redis.thaw();
    }
    await waitFor('the dashboard back in rotation', async () => (await probe('dashboard', '/healthz/ready')).status === 200, {
      timeoutMs: 10_000 + POD_READINESS_REUSE_MS,
    });
  });
});
