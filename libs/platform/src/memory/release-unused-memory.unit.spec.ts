import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { SERVICE_NODE_FLAGS } from '../app/node-flags';
import { releaseUnusedMemory } from './release-unused-memory';

describe('releaseUnusedMemory', () => {
  it('given the service flags, when called: runs a full collection, then a memory-reducing one', () => {
    const collections: unknown[] = [];
    releaseUnusedMemory((options) => collections.push(options ?? 'full'));
    expect(collections).toEqual(['full', { type: 'major', execution: 'sync', flavor: 'last-resort' }]);
  });

  it('given a process without --expose-gc, when called: does nothing and throws nothing', () => {
    expect(() => releaseUnusedMemory(undefined)).not.toThrow();
  });

  it('given a V8 that refuses the options, when called: the service starts all the same', () => {
    const refusing = (options?: object) => {
      if (options) throw new TypeError('unknown option');
    };
    expect(() => releaseUnusedMemory(refusing)).not.toThrow();
  });

  it('given a process run with the service flags, when garbage is left from start-up: the old space holds less after the call', () => {
    // A real V8 under the flags, not a stand-in: the collector must exist there and accept the options.
    // The compiled module, as a service runs it (jest's global set-up builds dist/).
    const compiled = join(__dirname, '..', '..', '..', '..', 'dist', 'libs', 'platform', 'src', 'memory', 'release-unused-memory.js');
    const script = `
      const { releaseUnusedMemory } = require(${JSON.stringify(compiled)});
      const v8 = require('node:v8');
      const used = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space').space_used_size;
      let garbage = [];
      for (let i = 0; i < 300000; i++) garbage.push({ i, text: 'x' + i });
      garbage = null;
      const before = used();
      releaseUnusedMemory();
      process.stdout.write(JSON.stringify({ before, after: used(), exposed: typeof globalThis.gc }));
    `;
    const output = execFileSync(process.execPath, [...SERVICE_NODE_FLAGS, '-e', script], { encoding: 'utf8' });
    const { before, after, exposed } = JSON.parse(output) as { before: number; after: number; exposed: string };
    expect(exposed).toBe('function');
    expect(after).toBeLessThan(before / 2);
  });
});
