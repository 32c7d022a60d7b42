import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
    for (const deadline = Date.now() + 5000; !gone(server.pid) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(gone(server.pid)).toBe(true);

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
});
