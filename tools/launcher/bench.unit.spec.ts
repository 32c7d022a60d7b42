/*
 * `npm run bench` (bench.js): which Node runs the bench, its baseline and every service. BENCH_NODE names a
 * pinned Node LTS (pinned-node.js); unset, the Node that runs npm.
 */

/* eslint-disable @typescript-eslint/no-require-imports -- the launcher is plain CommonJS */
const { benchNode } = require('./bench') as { benchNode: (env: Record<string, string | undefined>, ensurePinned?: (major: string) => string) => string };
/* eslint-enable @typescript-eslint/no-require-imports */

describe('npm run bench, BENCH_NODE', () => {
  it.each(['22', '24'])('given BENCH_NODE=%s, then the bench runs on that pinned Node', (major) => {
    const asked: string[] = [];
    const binary = benchNode({ BENCH_NODE: major }, (wanted) => {
      asked.push(wanted);
      return `/pinned/node${wanted}/bin/node`;
    });
    expect(asked).toEqual([major]);
    expect(binary).toBe(`/pinned/node${major}/bin/node`);
  });

  it('given a major no Node is pinned for, then it is refused with what is pinned, before anything is installed', () => {
    expect(() => benchNode({ BENCH_NODE: '18' })).toThrow('BENCH_NODE=18: no pinned Node 18: tools/ pins 22 and 24 (unset: the Node that runs npm)');
  });

  it('given BENCH_NODE set but empty, then it is refused with what is pinned, not taken for unset', () => {
    expect(() => benchNode({ BENCH_NODE: '' })).toThrow('BENCH_NODE="": no pinned Node : tools/ pins 22 and 24 (unset: the Node that runs npm)');
  });

  it('given no BENCH_NODE, then the bench runs on the Node that runs npm', () => {
    expect(benchNode({})).toBe(process.execPath);
  });
});
