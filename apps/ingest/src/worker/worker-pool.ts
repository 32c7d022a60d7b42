import { MessageChannel, type MessagePort, receiveMessageOnPort, type ResourceLimits, Worker } from 'node:worker_threads';
import { releaseUnusedMemory } from '@pp/platform/memory';

/** What became of one job: the worker's answer, or why there is none. */
export type WorkerRun<Out> = { status: 'done'; output: Out } | { status: 'timeout' } | { status: 'crashed'; error: Error };

/**
 * The protocol a worker script speaks (serveJobs): it posts WORKER_READY once
 * its modules are loaded, then answers each `{ inputs }` (a batch of jobs)
 * with `{ outputs }`, one output per input in order, recording in the shared
 * progress which job it is on and since when. Told WORKER_FREE_MEMORY (idle,
 * about to be stopped), it gives back its heap and answers WORKER_MEMORY_FREED.
 */
export const WORKER_READY = 'ready';
export const WORKER_FREE_MEMORY = 'free-memory';
export const WORKER_MEMORY_FREED = 'memory-freed';

type FromWorker<Out> = typeof WORKER_READY | typeof WORKER_MEMORY_FREED | { outputs: Out[] };

/** Jobs handed to one worker at once at most: each hand-over and each answer wakes a thread, so a burst goes in few of them. */
export const MAX_JOBS_PER_BATCH = 8;

/** What the pool gives each worker besides the caller's workerData: its port and its progress. */
interface PoolWorkerData {
  port: MessagePort;
  progress: SharedArrayBuffer;
}

/**
 * Shared between the pool and one worker: [index in the batch of the job the
 * worker is running, or -1 before it starts one; Date.now() when it started
 * it]. The pool reads it at a deadline, so the worker need not post a
 * message per job for the deadline to count from the job's own start.
 */
const progressOf = (buffer: SharedArrayBuffer): BigInt64Array => new BigInt64Array(buffer);
const PROGRESS_BYTES = 2 * BigInt64Array.BYTES_PER_ELEMENT;

/** In a worker script: answers the pool's batches with `work`, one job after the other. */
export function serveJobs<In, Out>(workerData: unknown, work: (input: In) => Out | Promise<Out>): void {
  const { port, progress: buffer } = workerData as PoolWorkerData;
  const progress = progressOf(buffer);
  port.on('message', async (message: typeof WORKER_FREE_MEMORY | { inputs: In[] }) => {
    if (message === WORKER_FREE_MEMORY) {
      releaseUnusedMemory();
      return port.postMessage(WORKER_MEMORY_FREED);
    }
    const { inputs } = message;
    const outputs: Out[] = [];
    for (let i = 0; i < inputs.length; i++) {
      Atomics.store(progress, 1, BigInt(Date.now()));
      Atomics.store(progress, 0, BigInt(i));
      outputs.push(await work(inputs[i]));
    }
    port.postMessage({ outputs });
  });
  port.postMessage(WORKER_READY);
}

export interface WorkerPoolOptions {
  /** Path of the compiled worker script. */
  script: string;
  /** Most workers running at once. */
  size: number;
  /** How long one job may run once a worker has started it; then the worker is terminated and replaced. */
  deadlineMs: number;
  resourceLimits?: ResourceLimits;
  /** Plain values every worker receives next to its port (structured-cloned: no functions, no class instances). */
  workerData?: Record<string, unknown>;
  /**
   * A worker with no job for this long gives back its heap and is stopped;
   * the next work starts another. It collects first because Node 24 keeps
   * a stopped worker's heap pages otherwise (in a probe, four workers that
   * had worked left 690 MB behind them; collecting first, 90). Unset:
   * workers are kept.
   */
  retireIdleAfterMs?: number;
}

interface Job<In, Out> {
  input: In;
  resolve(run: WorkerRun<Out>): void;
  reject(error: Error): void;
}

interface Slot<In, Out> {
  worker: Worker;
  port: MessagePort;
  progress: BigInt64Array;
  ready: boolean;
  /** The batch it works on, in order; empty when idle. */
  jobs: Job<In, Out>[];
  timer?: NodeJS.Timeout;
  /** Runs out retireIdleAfterMs after the worker went idle; once it is retiring, the deadline for it to free its memory. */
  idleTimer?: NodeJS.Timeout;
}

/**
 * Runs jobs in worker threads, each under a deadline, so that no input can
 * hold the event loop. Workers start when work arrives and are kept while it
 * keeps coming (retireIdleAfterMs): each holds its own heap, tens of MB once
 * it has worked, which the service's idle-memory watch cannot reach. One that
 * overruns its deadline is terminated (V8 stops it even inside a regular
 * expression) and replaced, as is one that dies. The deadline counts from the
 * moment a worker starts the job, never time spent waiting in the queue or
 * behind the jobs before it in its batch, so a slow neighbour cannot make a
 * job time out.
 *
 * Jobs queued together are shared out among the idle workers in batches (at
 * most MAX_JOBS_PER_BATCH each), one message each way per batch: a hand-over
 * to a thread is a system call, and a wake-up when that thread sleeps, which
 * cost more than a small job. A lone job goes alone, at once. A slow job
 * holds up the rest of its batch, at most by its deadline. When a job
 * overruns or kills its worker, the other jobs of its batch are queued again
 * (their work is repeatable); that job alone gets the timeout or the crash.
 */
export class WorkerPool<In, Out> {
  private readonly slots = new Set<Slot<In, Out>>();
  /** Idle workers out of the pool, giving back their heaps before they stop. */
  private readonly retiring = new Set<Slot<In, Out>>();
  private readonly queue: Job<In, Out>[] = [];
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  /**
   * Resolves with the job's fate. Rejects only when the pool closes first or
   * a worker cannot even start (a broken build): then the job never ran and
   * may be tried again later.
   */
  run(input: In): Promise<WorkerRun<Out>> {
    if (this.closed) return Promise.reject(new Error('the worker pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ input, resolve, reject });
      this.pump();
    });
  }

  /** Terminates every worker; jobs still queued or running are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('the worker pool closed before the job finished');
    for (const job of this.queue.splice(0)) job.reject(error);
    const slots = [...this.slots];
    for (const slot of slots) for (const job of this.takeBatch(slot)) job.reject(error);
    await Promise.all([...slots.map((slot) => this.retire(slot)), ...[...this.retiring].map((slot) => this.stop(slot))]);
  }

  /**
   * Starts workers while more jobs wait than there are workers to take them
   * (up to the pool size), then shares the queue out among the idle ones,
   * leaving their shares to those still starting.
   */
  private pump(): void {
    const idle = [...this.slots].filter((slot) => slot.ready && slot.jobs.length === 0);
    let starting = [...this.slots].filter((slot) => !slot.ready).length;
    while (this.queue.length > idle.length + starting && this.slots.size < this.options.size) {
      this.spawn();
      starting += 1;
    }
    for (const [i, slot] of idle.entries()) {
      if (this.queue.length === 0) break;
      const share = Math.min(MAX_JOBS_PER_BATCH, Math.ceil(this.queue.length / (idle.length - i + starting)));
      this.assign(slot, this.queue.splice(0, share));
    }
  }

  private spawn(): void {
    // A port of our own rather than the worker's built-in one: it can be read synchronously at the deadline.
    const { port1: port, port2 } = new MessageChannel();
    const progress = new SharedArrayBuffer(PROGRESS_BYTES);
    const workerData: PoolWorkerData = { port: port2, progress };
    const worker = new Worker(this.options.script, {
      workerData: { ...this.options.workerData, ...workerData },
      transferList: [port2],
      resourceLimits: this.options.resourceLimits,
    });
    // An idle worker never keeps the process alive; a running job's deadline timer does.
    worker.unref();
    port.unref();
    const slot: Slot<In, Out> = { worker, port, progress: progressOf(progress), ready: false, jobs: [] };
    this.slots.add(slot);
    port.on('message', (message: FromWorker<Out>) => this.answered(slot, message));
    worker.on('error', (error) => this.died(slot, error));
    worker.on('exit', (code) => this.died(slot, new Error(`the worker exited with code ${code}`)));
  }

  private assign(slot: Slot<In, Out>, jobs: Job<In, Out>[]): void {
    clearTimeout(slot.idleTimer);
    slot.jobs = jobs;
    Atomics.store(slot.progress, 0, -1n);
    slot.timer = setTimeout(() => this.checkDeadline(slot), this.options.deadlineMs);
    const inputs: unknown[] = [];
    const transfer: ArrayBuffer[] = [];
    for (const { input } of jobs) {
      if (input instanceof Uint8Array) {
        // Posting a typed array clones its whole ArrayBuffer, and a Buffer under 4 KB is a view of Node's shared
        // 8 KB pool, other Buffers' bytes included. An exact copy, moved rather than cloned, carries the input
        // alone and costs less on Node 24 (docs/PERFORMANCE.md); the caller's bytes stay as they were.
        const own = new Uint8Array(input);
        inputs.push(own);
        transfer.push(own.buffer);
      } else inputs.push(input);
    }
    slot.port.postMessage({ inputs }, transfer);
  }

  private answered(slot: Slot<In, Out>, message: FromWorker<Out>): void {
    if (message === WORKER_MEMORY_FREED) return void this.stop(slot);
    if (message === WORKER_READY) slot.ready = true;
    else this.takeBatch(slot).forEach((job, i) => job.resolve({ status: 'done', output: message.outputs[i] }));
    this.pump();
    if (slot.jobs.length === 0) this.retireWhenIdle(slot);
  }

  private retireWhenIdle(slot: Slot<In, Out>): void {
    const after = this.options.retireIdleAfterMs;
    if (after === undefined || !this.slots.has(slot)) return;
    slot.idleTimer = setTimeout(() => this.retireIdle(slot), after);
    slot.idleTimer.unref();
  }

  /**
   * Takes the idle worker out of the pool (work that comes now starts
   * another), has it give back its heap, and stops it once it has, or after
   * a deadline if it does not answer.
   */
  private retireIdle(slot: Slot<In, Out>): void {
    this.slots.delete(slot);
    this.retiring.add(slot);
    slot.idleTimer = setTimeout(() => void this.stop(slot), this.options.deadlineMs);
    slot.idleTimer.unref();
    slot.port.postMessage(WORKER_FREE_MEMORY);
  }

  /**
   * Runs out a deadline after the batch was handed over, then again until
   * the job the worker is on has run for a deadline from its own start, or
   * the batch is answered.
   */
  private checkDeadline(slot: Slot<In, Out>): void {
    // When this thread was busy past the deadline, the timer and the answer may both be waiting: the answer wins.
    const waiting = receiveMessageOnPort(slot.port);
    if (waiting) return this.answered(slot, waiting.message);
    const running = Number(Atomics.load(slot.progress, 0));
    if (running < 0) {
      // Its thread has not read the batch yet: no job has started.
      slot.timer = setTimeout(() => this.checkDeadline(slot), this.options.deadlineMs);
      return;
    }
    // The worker stores the start before the index, so this start is the running job's or a later one's.
    const due = Number(Atomics.load(slot.progress, 1)) + this.options.deadlineMs;
    if (Date.now() < due) {
      slot.timer = setTimeout(() => this.checkDeadline(slot), due - Date.now());
      return;
    }
    this.fail(slot, running, { status: 'timeout' });
  }

  private died(slot: Slot<In, Out>, error: Error): void {
    if (!this.slots.has(slot)) return; // already retired ('error' is followed by 'exit')
    if (slot.jobs.length > 0) return this.fail(slot, Math.max(0, Number(Atomics.load(slot.progress, 0))), { status: 'crashed', error });
    void this.retire(slot);
    if (!slot.ready) {
      // It could not even start, so neither will its replacement: fail what waits instead of respawning in a loop.
      for (const waiting of this.queue.splice(0)) waiting.reject(new Error(`the worker failed to start: ${error.message}`));
    }
    if (!this.closed) this.pump();
  }

  /** Job `culprit` of the slot's batch gets `run`; the others go back to the front of the queue; the worker is replaced. */
  private fail(slot: Slot<In, Out>, culprit: number, run: WorkerRun<Out>): void {
    const jobs = this.takeBatch(slot);
    void this.retire(slot);
    jobs[culprit]?.resolve(run);
    this.queue.unshift(...jobs.filter((_, i) => i !== culprit));
    if (!this.closed) this.pump();
  }

  /** Forgets the slot and stops its worker. */
  private retire(slot: Slot<In, Out>): Promise<number> {
    this.slots.delete(slot);
    return this.stop(slot);
  }

  private stop(slot: Slot<In, Out>): Promise<number> {
    this.retiring.delete(slot);
    clearTimeout(slot.idleTimer);
    slot.port.close();
    return slot.worker.terminate();
  }

  /** Takes the slot's batch and stops its deadline. */
  private takeBatch(slot: Slot<In, Out>): Job<In, Out>[] {
    clearTimeout(slot.timer);
    const jobs = slot.jobs;
    slot.jobs = [];
    slot.timer = undefined;
    return jobs;
  }
}
