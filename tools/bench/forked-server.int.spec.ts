import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '@pp/testing';
import { forkServer } from './forked-server';

/** Whether `pid` is gone (reaped): kill(0) fails once it is. */
const gone = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

describe("the bench's forked servers (forked-server.ts)", () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'bench-forked-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const script = (name: string, body: string): string => {
    const file = join(dir, name);
    writeFileSync(file, body);
    return file;
  };

  it('given a child that exited right after reporting ready, when closed, then close() resolves at once', async () => {
    const server = await forkServer(script('exits.js', "process.send({ url: 'http://127.0.0.1:1' }, () => process.exit(0));"), [], {});
    expect(await waitFor('the child gone', () => gone(server.pid), { timeoutMs: 5000, intervalMs: 20 })).toBe(true);

    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([server.close().then(() => 'closed'), new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting after 1 s'), 1000)))]);
    clearTimeout(timer);

    expect(closed).toBe('closed');
  });

  it('given a child that ignores SIGTERM, when closed, then it is killed after the grace', async () => {
    const server = await forkServer(script('stays.js', "process.on('SIGTERM', () => {}); process.send({ url: 'x' }); setInterval(() => {}, 1000);"), [], {}, { killAfterMs: 300 });
    const started = Date.now();

    await server.close();

    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(gone(server.pid)).toBe(true);
  });

  it('given a child that never reports ready, then it is killed at the ready deadline, and the start fails', async () => {
    const pidFile = join(dir, 'silent.pid');
    const silent = script('silent.js', "require('node:fs').writeFileSync(process.argv[2], String(process.pid)); setInterval(() => {}, 1000);");
    let timer: NodeJS.Timeout | undefined;
    const started = Date.now();

    const outcome = await Promise.race([
      forkServer(silent, [pidFile], {}, { readyWithinMs: 500 }).then(
        () => 'ready',
        (error: Error) => error.message,
      ),
      new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting after 5 s'), 5000))),
    ]);
    clearTimeout(timer);

    expect(outcome).toBe(`${silent} ${pidFile} did not report ready within 0.5 s (killed)`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    expect(await waitFor('the silent child gone', () => gone(pid), { timeoutMs: 5000, intervalMs: 20 })).toBe(true);
  });
});
