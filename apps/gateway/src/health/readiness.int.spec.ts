import { SERVICE_NAMES } from '@pp/contracts';
import { TestStack, waitFor } from '@pp/testing';
import { READINESS_DEADLINE_MS, type ReadinessReport } from './readiness.service';

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
      expect(body.services[service]).toMatchObject({ status: 'up', latency_ms: expect.any(Number), instance: expect.any(String) });
    }
  });

  it('reports a stopped service down within its deadline while the gateway keeps answering', async () => {
    await stack.stopService('ledger', 'SIGKILL');
    const { status, body, elapsedMs } = await readyz();
    expect(status).toBe(503);
    expect(body.status).toBe('not_ready');
    expect(body.services.ledger).toMatchObject({ status: 'down', error: expect.any(String) });
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
