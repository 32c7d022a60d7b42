import { errorText, PathRunner } from './path-runner';
import type { Row } from './report';

const row = (key: string): Row => ({ key, path: key, throughput: '1 req/s', p50_ms: 1, p99_ms: 2, baseline: '-', ratio: '-' });

describe("the bench's path runner", () => {
  it('given three paths of which the second throws, when run in turn, then the first and third keep their rows and the second is an error row between them', async () => {
    const logged: string[] = [];
    const runner = new PathRunner((text) => logged.push(text));

    await runner.run('first', 'the first path', async () => runner.add(row('first')));
    await runner.run('second', 'the second path', async () => {
      runner.add(row('second-measured'));
      throw new Error('gateway answered 500');
    });
    await runner.run('third', 'the third path', async () => runner.add(row('third')));

    expect(runner.rows.map((r) => r.key)).toEqual(['first', 'second-measured', 'second', 'third']);
    expect(runner.rows[2]).toEqual({ key: 'second', path: 'the second path', throughput: 'failed', p50_ms: null, p99_ms: null, baseline: '-', ratio: '-', error: 'gateway answered 500' });
    expect(runner.failures).toEqual([{ key: 'second', path: 'the second path', error: 'gateway answered 500' }]);
    expect(logged.join('\n')).toContain('the second path failed: Error: gateway answered 500');
  });

  it('given a path inside another that throws, then it is an error row of its own and the outer path goes on', async () => {
    const runner = new PathRunner();

    await runner.run('create', 'create session paths', async () => {
      runner.add(row('baseline'));
      await runner.run('floor-plain', 'the floor', async () => {
        throw new Error('the floor exited with 1');
      });
      runner.add(row('create-max'));
    });

    expect(runner.rows.map((r) => [r.key, r.error])).toEqual([
      ['baseline', undefined],
      ['floor-plain', 'the floor exited with 1'],
      ['create-max', undefined],
    ]);
    expect(runner.failures.map((f) => f.key)).toEqual(['floor-plain']);
  });

  it('given a run stopped while a path was under way, then that path fails without an error row, and no row is added and no path runs after it', async () => {
    const runner = new PathRunner();
    const interrupted = new Error('interrupted by SIGINT');
    let later = false;

    const outer = runner.run('create', 'create session paths', async () => {
      runner.add(row('baseline'));
      await runner.run('create-max', 'max load', async () => {
        runner.stop(interrupted);
        runner.add(row('create-max'));
        throw new Error('connect ECONNREFUSED');
      });
      runner.add(row('create-half'));
    });
    await expect(outer).rejects.toBe(interrupted);
    await expect(runner.run('webhook-latency', 'webhook', async () => void (later = true))).rejects.toBe(interrupted);

    expect(runner.rows.map((r) => r.key)).toEqual(['baseline']);
    expect(runner.failures).toEqual([]);
    expect(later).toBe(false);
  });

  it('given something thrown, then its text is the message, or the stack when asked; a thrown non-Error is its string', () => {
    const error = new Error('gateway answered 500');

    expect(errorText(error)).toBe('gateway answered 500');
    expect(errorText(error, { stack: true })).toMatch(/^Error: gateway answered 500\n\s+at /);
    expect(errorText('a string')).toBe('a string');
    expect(errorText(Object.assign(new Error('no stack'), { stack: undefined }), { stack: true })).toBe('no stack');
  });
});
