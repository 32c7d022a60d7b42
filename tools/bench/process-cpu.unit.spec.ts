import { CpuWindow, type CpuSample, ProcessCpu } from './process-cpu';
import { cpuGroups, LOAD_GROUP } from './report';

const sample = (groups: Record<string, [pid: number, ms: number][]>): CpuSample =>
  new Map(Object.entries(groups).map(([group, pids]) => [group, new Map(pids.map(([pid, ms]) => [pid, { ms, writes: 0, waits: new Map() }]))]));

describe('CPU per request of each process', () => {
  it('given the stack and the load generator, when the cost per request is taken, then the load generator is shown but left out of the total', () => {
    const before = sample({ gateway: [[10, 100]], postgres: [[20, 50]], [LOAD_GROUP]: [[30, 1_000]] });
    const after = sample({ gateway: [[10, 300]], postgres: [[20, 150]], [LOAD_GROUP]: [[30, 1_400]] });

    const perRequest = ProcessCpu.perRequest(before, after, 100, 'ms');

    expect(perRequest).toEqual({ gateway: 2, postgres: 1, [LOAD_GROUP]: 4, total: 3 });
  });

  it('given a process that started in between, then it counts from zero', () => {
    const perRequest = ProcessCpu.perRequest(sample({ ingest: [[1, 10]] }), sample({ ingest: [[1, 20], [2, 30]] }), 10, 'ms');
    expect(perRequest).toEqual({ ingest: 4, total: 4 });
  });

  it('given rows with the load generator, when the columns are ordered, then it comes after the total', () => {
    const rows = [{ path: 'p', throughput: '', p50_ms: null, p99_ms: null, baseline: '', ratio: '', cpu_ms_per_request: { [LOAD_GROUP]: 1, nats: 0.5, gateway: 1, total: 1.5 } }];
    expect(cpuGroups(rows)).toEqual(['gateway', 'nats', 'total', LOAD_GROUP]);
  });
});

describe("a path's CPU window", () => {
  it('given a window closed after its timed work, then the settle comes before the last sample, and the requests are read after it', async () => {
    const calls: string[] = [];
    let gatewayMs = 100;
    const cpu = {
      sample: async () => {
        calls.push('sample');
        return sample({ gateway: [[10, gatewayMs]] });
      },
      scrapeServices: async () => {
        calls.push('scrape');
        return new Map();
      },
    };

    const window = await CpuWindow.open(cpu, { settleMs: 50 });
    gatewayMs = 200;
    window.endTiming();
    setTimeout(() => (gatewayMs = 300), 10); // the work the requests left behind, during the settle
    const cost = await window.close(() => {
      calls.push('requests');
      return 100;
    });

    expect(calls).toEqual(['scrape', 'sample', 'sample', 'scrape', 'requests']);
    expect(cost.cpu_ms_per_request).toEqual({ gateway: 2, total: 2 });
    const [from, to] = cost.profile_window_us ?? [0, 0];
    // The settle's timer may fire a little early against the window's clock (49.8 ms seen in CI): the 300 ms above is what shows its order.
    expect(to - from).toBeGreaterThanOrEqual(45_000);
    expect(cost.cores_idle_percent).toEqual(expect.any(Number));
  });

  it('given work already under way as the window opens, then its count is read right after the first CPU sample, not before the scrape', async () => {
    const calls: string[] = [];
    const cpu = {
      sample: async () => {
        calls.push('sample');
        return sample({ webhooks: [[10, 100]] });
      },
      scrapeServices: async () => {
        calls.push('scrape');
        return new Map();
      },
    };

    await CpuWindow.open(cpu, { settleMs: 0, atFirstSample: () => calls.push('count') });

    expect(calls).toEqual(['scrape', 'sample', 'count']);
  });
});
