import { MessageChannel, type MessagePort, receiveMessageOnPort, type ResourceLimits, Worker } from 'node:worker_threads';

/** What became of one job: the worker's answer, or why there is none. */
export type WorkerRun<Out> = { status: 'done'; output: Out } | { status: 'timeout' } | { status: 'crashed'; error: Error };

/**
 * The protocol a worker script speaks, on the port it gets as `workerData.port`
 * (workerPort()): it posts WORKER_READY once its modules are loaded, then
 * answers each `{ input }` with `{ output }`, one job at a time.
 */
export const WORKER_READY = 'ready';

/** In a worker script: the port to the pool. */
export const workerPort = (workerData: { port: MessagePort }): MessagePort => workerData.port;

export interface WorkerPoolOptions {
  /** Path of the compiled worker script. */
  script: string;
  /** Most workers running at once. */
  size: number;
  /** How long one job may run once a worker has it; then the worker is terminated and replaced. */
  deadlineMs: number;
  resourceLimits?: ResourceLimits;
  /** Plain values every worker receives next to its port (structured-cloned: no functions, no class instances). */
  workerData?: Record<string, unknown>;
}

interface Job<In, Out> {
  input: In;
  resolve(run: WorkerRun<Out>): void;
  reject(error: Error): void;
}

interface Slot<In, Out> {
  worker: Worker;
  port: MessagePort;
  ready: boolean;
  job?: Job<In, Out>;
  timer?: NodeJS.Timeout;
}

/**
 * Runs jobs in worker threads, each under a deadline, so that no input can
 * hold the event loop. Workers start when work arrives and are kept; one that
 * overruns its deadline is terminated (V8 stops it even inside a regular
 * expression) and replaced, as is one that dies. The deadline counts from the
 * moment a ready worker takes the job, never time spent waiting in the queue,
 * so a slow neighbour cannot make a job time out.
 */
export class WorkerPool<In, Out> {
  private readonly slots = new Set<Slot<In, Out>>();
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
    for (const slot of slots) this.release(slot)?.reject(error);
    await Promise.all(slots.map((slot) => this.retire(slot)));
  }

  /** Hands queued jobs to idle workers, and starts workers for the rest while below the pool size. */
  private pump(): void {
    for (const slot of this.slots) {
      const job = slot.ready && !slot.job ? this.queue.shift() : undefined;
      if (job) this.assign(slot, job);
    }
    let starting = [...this.slots].filter((slot) => !slot.ready).length;
    while (this.queue.length > starting && this.slots.size < this.options.size) {
      this.spawn();
      starting += 1;
    }
  }

  private spawn(): void {
    // A port of our own rather than the worker's built-in one: it can be read synchronously at the deadline.
    const { port1: port, port2 } = new MessageChannel();
    const worker = new Worker(this.options.script, {
      workerData: { ...this.options.workerData, port: port2 },
      transferList: [port2],
      resourceLimits: this.options.resourceLimits,
    });
    // An idle worker never keeps the process alive; a running job's deadline timer does.
    worker.unref();
    port.unref();
    const slot: Slot<In, Out> = { worker, port, ready: false };
    this.slots.add(slot);
    port.on('message', (message: typeof WORKER_READY | { output: Out }) => this.answered(slot, message));
    worker.on('error', (error) => this.died(slot, error));
    worker.on('exit', (code) => this.died(slot, new Error(`the worker exited with code ${code}`)));
  }

  private assign(slot: Slot<In, Out>, job: Job<In, Out>): void {
    slot.job = job;
    slot.timer = setTimeout(() => this.expire(slot), this.options.deadlineMs);
    const input = job.input;
    if (input instanceof Uint8Array) {
      // Posting a typed array clones its whole ArrayBuffer, and a Buffer under 4 KB is a view of Node's shared
      // 8 KB pool, other Buffers' bytes included. An exact copy, moved rather than cloned, carries the input
      // alone and costs less on Node 24 (docs/PERFORMANCE.md); the caller's bytes stay as they were.
      const own = new Uint8Array(input);
      slot.port.postMessage({ input: own }, [own.buffer]);
    } else slot.port.postMessage({ input });
  }

  private answered(slot: Slot<In, Out>, message: typeof WORKER_READY | { output: Out }): void {
    if (message === WORKER_READY) slot.ready = true;
    else this.release(slot)?.resolve({ status: 'done', output: message.output });
    this.pump();
  }

  private expire(slot: Slot<In, Out>): void {
    // When this thread was busy past the deadline, the timer and the answer may both be waiting: the answer wins.
    const waiting = receiveMessageOnPort(slot.port);
    if (waiting) return this.answered(slot, waiting.message);
    const job = this.release(slot);
    void this.retire(slot);
    job?.resolve({ status: 'timeout' });
    if (!this.closed) this.pump();
  }

  private died(slot: Slot<In, Out>, error: Error): void {
    if (!this.slots.has(slot)) return; // already retired ('error' is followed by 'exit')
    const job = this.release(slot);
    void this.retire(slot);
    if (job) job.resolve({ status: 'crashed', error });
    else if (!slot.ready) {
      // It could not even start, so neither will its replacement: fail what waits instead of respawning in a loop.
      for (const waiting of this.queue.splice(0)) waiting.reject(new Error(`the worker failed to start: ${error.message}`));
    }
    if (!this.closed) this.pump();
  }

  /** Forgets the slot and stops its worker. */
  private retire(slot: Slot<In, Out>): Promise<number> {
    this.slots.delete(slot);
    slot.port.close();
    return slot.worker.terminate();
  }

  /** Takes the slot's job (if any) and stops its deadline. */
  private release(slot: Slot<In, Out>): Job<In, Out> | undefined {
    clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = undefined;
    slot.timer = undefined;
    return job;
  }
}
