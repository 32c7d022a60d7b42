/**
 * Group commit for a whole pipeline: tasks that arrive while others are
 * running wait, and start together when those are done. Callers that each
 * wait for their answer before sending again (HTTP clients) then keep
 * arriving together, so every stage behind the gate (statements, worker
 * jobs, bus requests) serves them in one go instead of one wake-up each.
 *
 * Under no load a lone task starts at once (after the current turn, so that
 * tasks of the same turn start with it). No task waits longer than
 * `maxWaitMs` behind a slow one: then the waiting tasks start beside it.
 */
export class WaveGate {
  private running = 0;
  private waiting: Array<() => void> = [];
  private timer?: NodeJS.Timeout;
  private starting = false;

  constructor(private readonly maxWaitMs: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    await new Promise<void>((start) => {
      this.waiting.push(start);
      if (this.running === 0 && !this.starting) {
        this.starting = true;
        setImmediate(() => this.startWaiting());
      } else {
        this.timer ??= setTimeout(() => this.startWaiting(), this.maxWaitMs);
      }
    });
    try {
      return await task();
    } finally {
      if (--this.running === 0 && this.waiting.length > 0) this.startWaiting();
    }
  }

  private startWaiting(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.starting = false;
    const wave = this.waiting;
    this.waiting = [];
    this.running += wave.length;
    for (const start of wave) start();
  }
}
