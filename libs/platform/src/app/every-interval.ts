/**
 * Work a service repeats every `intervalMs` from start() until stop() (a sweeper, a pruner): a round starts only when
 * the one before has ended, so a slow round is never piled on, and stop() clears the interval and waits for a round
 * under way (`void stop()` stops it without waiting). A round handles its own failures (FailureStreak.guard, say).
 */
export class EveryInterval {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly intervalMs: number,
    private readonly round: () => Promise<unknown>,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.round().finally(() => (this.running = undefined));
    }, this.intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
