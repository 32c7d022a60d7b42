import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../app/node-flags';

describe('watchIdleMemory', () => {
  it('given a process that worked, left garbage and went quiet: collects it once, and not again while it stays quiet', () => {
    // A real V8 under the service flags, with the policy's times shortened; the compiled module, as a service runs it.
    const compiled = join(__dirname, '..', '..', '..', '..', 'dist', 'libs', 'platform', 'src', 'memory', 'idle-memory.watch.js');
    const script = `
      const { watchIdleMemory } = require(${JSON.stringify(compiled)});
      const { releaseUnusedMemory } = require(${JSON.stringify(compiled.replace('idle-memory.watch', 'release-unused-memory'))});
      const v8 = require('node:v8');
      const used = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space').space_used_size;
      let releases = 0;
      const stop = watchIdleMemory({ lookEveryMs: 100, quietBelow: 0.02, quietForMs: 300, minGrowthBytes: 8 * 1024 * 1024 }, () => {
        releases += 1;
        releaseUnusedMemory();
      });
      // Work: half a second busy, building what a burst of requests leaves behind, then dropped.
      let held = [];
      const end = Date.now() + 500;
      while (Date.now() < end) for (let i = 0; i < 20000; i++) held.push({ i, text: 'x' + i + held.length });
      held = null;
      const before = used();
      setTimeout(() => {
        stop();
        process.stdout.write(JSON.stringify({ releases, before, after: used() }));
      }, 2000);
    `;
    const output = execFileSync(process.execPath, [...SERVICE_NODE_FLAGS, '-e', script], { encoding: 'utf8' });
    const { releases, before, after } = JSON.parse(output) as { releases: number; before: number; after: number };
    expect(releases).toBe(1);
    expect(after).toBeLessThan(before / 2);
  });
});
