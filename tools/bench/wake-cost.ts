import { fork } from 'node:child_process';
import { connect, createServer, type Socket } from 'node:net';
import { runQueueWaitBetween, threadRunQueueWaits, type ThreadWaits } from './run-queue-wait';

/**
 * What this machine charges a process for waking up. A forked process does
 * the same short piece of work for each one-byte message it reads from a
 * loopback socket (60-120 µs of JSON on the machines measured so far),
 * once for messages sent back to back, so that it never sleeps, and once
 * for messages 1 ms apart, so that it sleeps before each. The second costs
 * more CPU per message: the wake-up itself, and the short work after it,
 * which runs slower, as on a cold cache (docs/PERFORMANCE.md, "Why CPU per
 * request doubles below full load"). Every path below full load (half
 * load, one webhook at a time, notices posted one by one) pays that at each
 * hop, in each process. Machines may differ in it more than in speed, so
 * the report keeps the figure beside the paths'.
 */
export interface WakeCost {
  /** CPU µs per message while messages come back to back. */
  back_to_back_us: number;
  /** CPU µs per message while they come 1 ms apart. */
  one_ms_apart_us: number;
  /** one_ms_apart_us / back_to_back_us. */
  ratio: number;
  /** µs per message the worker waited for a CPU, runnable but not running, while messages came 1 ms apart: a wake-up's delay. */
  one_ms_apart_wait_us: number;
}

const BACK_TO_BACK_MESSAGES = 20_000;
const SPACED_MESSAGES = 2_000;
const SAMPLE = { id: 'evt_0123456789', amount: 2500, currency: 'CAD', tags: ['a', 'b', 'c', 'd', 'e'], memo: { text: 'x'.repeat(200), paid: true } };

/** The work done per message: a JSON round of a small event, 40 times. */
function workForOneMessage(): number {
  let fields = 0;
  for (let i = 0; i < 40; i++) fields += (JSON.parse(JSON.stringify(SAMPLE)) as typeof SAMPLE).tags.length;
  return fields;
}

/** Two rounds of each, alternately; each figure is the mean of its two. */
export async function measureWakeCost(): Promise<WakeCost> {
  const worker = await forkWorker();
  try {
    const backToBack: PerMessage[] = [];
    const spaced: PerMessage[] = [];
    for (let round = 0; round < 2; round++) {
      backToBack.push(await worker.perMessage(BACK_TO_BACK_MESSAGES, sendBackToBack));
      spaced.push(await worker.perMessage(SPACED_MESSAGES, sendOneMsApart));
    }
    const mean = (runs: PerMessage[], of: keyof PerMessage) => Math.round(runs.reduce((sum, run) => sum + run[of], 0) / runs.length);
    const [back_to_back_us, one_ms_apart_us] = [mean(backToBack, 'cpuUs'), mean(spaced, 'cpuUs')];
    return { back_to_back_us, one_ms_apart_us, ratio: Math.round((one_ms_apart_us / back_to_back_us) * 100) / 100, one_ms_apart_wait_us: mean(spaced, 'waitUs') };
  } finally {
    worker.stop();
  }
}

async function sendBackToBack(socket: Socket, count: number): Promise<void> {
  const burst = Buffer.alloc(100, 'x');
  for (let sent = 0; sent < count; sent += burst.length) {
    // Waits for the socket to drain, so the worker always has messages queued but memory stays flat.
    if (!socket.write(burst)) await new Promise((resolve) => socket.once('drain', resolve));
  }
}

async function sendOneMsApart(socket: Socket, count: number): Promise<void> {
  for (let sent = 0; sent < count; sent++) {
    socket.write('x');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** What one message cost the worker, from its first message to its last. */
interface PerMessage {
  cpuUs: number;
  waitUs: number;
}

interface Worker {
  /** Sends `count` messages with `send` on a new connection; what each cost the worker. */
  perMessage(count: number, send: (socket: Socket, count: number) => Promise<void>): Promise<PerMessage>;
  stop(): void;
}

function forkWorker(): Promise<Worker> {
  // No inherited flags: under BENCH_PROFILE it would write a profile of its own among the services'.
  const child = fork(__filename, [], { execArgv: [], env: { PATH: process.env.PATH ?? '', BENCH_WAKE_WORKER: '1' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the wake-cost worker exited with ${code}`))));
  exited.catch(() => undefined); // observed by whichever wait races it
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    exited.catch(reject);
    child.once('message', (port: number) =>
      resolve({
        perMessage: async (count, send) => {
          const answer = Promise.race([new Promise<PerMessage>((done) => child.once('message', (cost: PerMessage) => done(cost))), exited]);
          const socket = connect(port, '127.0.0.1');
          socket.setNoDelay(true);
          await new Promise((ready) => socket.once('connect', ready));
          await send(socket, count);
          socket.end();
          return answer;
        },
        stop: () => {
          child.removeAllListeners('exit');
          child.kill('SIGTERM');
        },
      }),
    );
  });
}

/** The forked worker: answers what a message cost it (PerMessage) for each connection once the sender ends it. */
function serveAsWorker(): void {
  const server = createServer((socket) => {
    let messages = 0;
    let started: { cpu: NodeJS.CpuUsage; waits: ThreadWaits } | undefined;
    socket.on('data', (chunk: Buffer) => {
      started ??= { cpu: process.cpuUsage(), waits: threadRunQueueWaits('self') };
      for (let i = 0; i < chunk.length; i++) workForOneMessage();
      messages += chunk.length;
    });
    socket.on('end', () => {
      const used = process.cpuUsage(started?.cpu);
      const waitedMs = runQueueWaitBetween(started?.waits, threadRunQueueWaits('self'));
      const count = Math.max(1, messages);
      process.send?.({ cpuUs: (used.user + used.system) / count, waitUs: (waitedMs * 1000) / count } satisfies PerMessage);
      socket.end();
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.(typeof address === 'object' && address ? address.port : 0);
  });
}

if (require.main === module && process.env.BENCH_WAKE_WORKER === '1') serveAsWorker();
