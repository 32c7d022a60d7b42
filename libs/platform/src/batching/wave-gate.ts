export interface WaveGateOptions {
  /** No task waits longer than this behind a running wave: then the waiting tasks start beside it. */
  maxWaitMs: number;
  /**
   * How long, after a wave, the next one may wait for as many tasks as were
   * in the gate during it (0, the default: it starts with whoever waits).
   */
  regatherMs?: number;
}

/**
 * Group commit for a whole pipeline: tasks that arrive while others are
 * running wait, and start together when those are done. Callers that each
 * wait for their answer before sending again (HTTP clients) then keep
 * arriving together, so every stage behind the gate (statements, worker
 * jobs, bus requests) serves them in one go instead of one wake-up each.
 *
 * Such callers do not come back at once: their answers and next requests
 * travel through other processes. Started by the first of them to return,
 * a wave would hold one task and the next the rest, and the pipeline would
 * pay a whole wave's wake-ups for one task out of two. So with `regatherMs`
 * a wave starts once as many tasks wait as were in the gate during the wave
 * before (its crowd), or when that time is up, whichever comes first.
 *
 * Under no load a lone task starts at once (after the current turn, so that
 * tasks of the same turn start with it). No task waits longer than
 * `maxWaitMs` behind a slow one: then the waiting tasks start beside it.
 */
export class WaveGate {
  private running = 0;
  private waiting: Array<() => void> = [];
  /**
   * Most tasks in the gate at once (running and waiting) since the running
   * wave started; after it ends, how many the next wave waits for.
   */
  private crowd = 0;
  private overdue?: NodeJS.Timeout;
  private regathering?: NodeJS.Timeout;
  private starting = false;
  private readonly maxWaitMs: number;
  private readonly regatherMs: number;

  constructor(options: WaveGateOptions) {
    this.maxWaitMs = options.maxWaitMs;
    this.regatherMs = options.regatherMs ?? 0;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      this.waiting.push(start);
      if (this.running > 0) {
        this.crowd = Math.max(this.crowd, this.running + this.waiting.length);
        this.overdue ??= setTimeout(() => this.startWaiting(), this.maxWaitMs);
      } else if (this.regathering) {
        if (this.waiting.length >= this.crowd) this.startNextTurn();
        else this.regathering.ref(); // a task waits on it now
      } else if (!this.starting) {
        this.startNextTurn();
      }
    });
    try {
      return await task();
    } finally {
      if (--this.running === 0) this.waveEnded();
    }
  }

  private waveEnded(): void {
    if (this.regatherMs > 0 && this.waiting.length < this.crowd) {
      this.regathering = setTimeout(() => this.startWaiting(), this.regatherMs);
      // Waiting for callers that may never come back keeps no process alive; a task that waits refs it.
      if (this.waiting.length === 0) this.regathering.unref();
    } else if (this.waiting.length > 0) {
      this.startWaiting();
    }
  }

  /** Starts the waiting tasks after the current turn, so that tasks of the same turn start with them. */
  private startNextTurn(): void {
    clearTimeout(this.regathering);
    this.regathering = undefined;
    this.starting = true;
    setImmediate(() => this.startWaiting());
  }

  private startWaiting(): void {
    clearTimeout(this.overdue);
    clearTimeout(this.regathering);
    this.overdue = undefined;
    this.regathering = undefined;
    this.starting = false;
    const wave = this.waiting;
    this.waiting = [];
    // A wave started from an idle gate counts its crowd afresh; one started beside a slow wave adds to that wave's.
    this.crowd = this.running === 0 ? wave.length : Math.max(this.crowd, this.running + wave.length);
    this.running += wave.length;
    for (const start of wave) start();
  }
}
