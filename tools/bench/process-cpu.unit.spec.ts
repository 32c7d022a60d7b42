import { type CpuSample, ProcessCpu } from './process-cpu';
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
