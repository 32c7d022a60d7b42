import { hostname } from 'node:os';
import { SERVICE_NAMES } from '@pp/contracts';
import { TestStack, waitFor } from '@pp/testing';
import { READINESS_DEADLINE_MS, READINESS_REUSE_MS, type ReadinessReport } from './readiness.service';

describe('gateway readiness over the real stack', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({ services: SERVICE_NAMES, label: 'readiness' });
  });
  afterAll(() => stack?.stop());

  const readyz = async () => {
    const started = Date.now();
    const response = await fetch(`${stack.url('gateway')}/readyz`);
    return { status: response.status, body: (await response.json()) as ReadinessReport, elapsedMs: Date.now() - started };
  };

  it('reports Postgres, Redis, NATS and every service up', async () => {
    const { status, body } = await readyz();
    expect(status).toBe(200);
    expect(body.status).toBe('ready');
    for (const component of ['postgres', 'redis', 'nats'] as const) {
      expect(body.infrastructure[component]).toMatchObject({ status: 'up', latency_ms: expect.any(Number) });
    }
    for (const service of SERVICE_NAMES.filter((name) => name !== 'gateway')) {
      expect(body.services[service]).toEqual({ status: 'up', latency_ms: expect.any(Number) });
    }
  });

  it('is public, so it reveals no process id, host name or version', async () => {
    const { body } = await readyz();
    const text = JSON.stringify(body);
    // Each component shows exactly its status and latency: no field could carry a pid.
    for (const component of [...Object.values(body.infrastructure), ...Object.values(body.services)]) {
      expect(Object.keys(component).sort()).toEqual(['latency_ms', 'status']);
    }
    expect(text).not.toContain(hostname());
    expect(text).not.toMatch(/instance|pid|version|host/i);
    expect(Object.keys(body).sort()).toEqual(['checked_at', 'infrastructure', 'services', 'status']);
  });

  /** Past the time a report is reused, so the next /readyz checks again. */
  const nextCheck = () => new Promise((resolve) => setTimeout(resolve, READINESS_REUSE_MS + 50));

  it('answers a report again for a second, so a flood of /readyz costs the services one check a second', async () => {
    await nextCheck();
    const first = await readyz();
    const again = await Promise.all(Array.from({ length: 5 }, () => readyz()));
    expect(again.map(({ body }) => body.checked_at)).toEqual(Array(5).fill(first.body.checked_at));
    await nextCheck();
    expect((await readyz()).body.checked_at).not.toBe(first.body.checked_at);
  });

  it('reports a stopped service down within its deadline while the gateway keeps answering', async () => {
    await stack.stopService('ledger', 'SIGKILL');
    await nextCheck();
    const { status, body, elapsedMs } = await readyz();
    expect(status).toBe(503);
    expect(body.status).toBe('not_ready');
    expect(body.services.ledger).toEqual({ status: 'down', latency_ms: expect.any(Number), error: expect.stringMatching(/^(not answering|no answer within \d+ ms)$/) });
    expect(body.services.sessions.status).toBe('up');
    expect(elapsedMs).toBeLessThan(READINESS_DEADLINE_MS * 3);
    const live = await fetch(`${stack.url('gateway')}/healthz`);
    expect(live.status).toBe(200);

    await stack.startService('ledger');
    const recovered = await waitFor('ledger back up', async () => {
      const report = await readyz();
      return report.status === 200 ? report : undefined;
    });
    expect(recovered.body.services.ledger.status).toBe('up');
  });

  it('reports a service that is connected but silent as down after the deadline', async () => {
    const ledger = stack.process('ledger');
    process.kill(ledger.pid!, 'SIGSTOP');
    try {
      await nextCheck();
      const { status, body, elapsedMs } = await readyz();
      expect(status).toBe(503);
      expect(body.services.ledger.status).toBe('down');
      expect(body.services.ledger.error).toMatch(/within|answering/);
      expect(elapsedMs).toBeGreaterThanOrEqual(READINESS_DEADLINE_MS - 50);
      expect(elapsedMs).toBeLessThan(READINESS_DEADLINE_MS * 3);
    } finally {
      process.kill(ledger.pid!, 'SIGCONT');
    }
  });
});
