import { constants } from 'node:os';

/**
 * Ctrl-C or a SIGTERM during a run: the bench stops where it is and takes its usual way out (the stack stopped:
 * its test database, JetStream streams, Redis users and services; the report written, `stopped_early` saying
 * which signal), then exits as a process ended by that signal does (130, 143). A second signal exits at once,
 * for a clean-up that hangs.
 */

export const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** The exit code of a process ended by `signal`, as a shell gives it: 128 and the signal's number (SIGINT 130, SIGTERM 143). */
export const signalExitCode = (signal: StopSignal): number => 128 + constants.signals[signal];

/** What the interrupted run rejects with: its message is the report's `stopped_early`. */
export class Interrupted extends Error {
  constructor(readonly signal: StopSignal) {
    super(`interrupted by ${signal}`);
    this.name = 'Interrupted';
  }

  get exitCode(): number {
    return signalExitCode(this.signal);
  }
}

/** The part of `process` an Interruption listens on (a stand-in in the unit spec). */
export interface SignalSource {
  on(event: StopSignal, listener: () => void): unknown;
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  exit(code: number): never;
}

export class Interruption {
  private reason?: Interrupted;
  private readonly listeners: ((reason: Interrupted) => void)[] = [];

  constructor(
    private readonly source: SignalSource,
    private readonly log: (text: string) => void,
  ) {
    for (const signal of STOP_SIGNALS) source.on(signal, () => this.receive(signal));
  }

  /** The first signal received, if any. */
  get interrupted(): Interrupted | undefined {
    return this.reason;
  }

  /** Calls `listener` with the first signal (at once when it has come already). */
  onInterrupt(listener: (reason: Interrupted) => void): void {
    if (this.reason) listener(this.reason);
    else this.listeners.push(listener);
  }

  /**
   * Settles as `work` does, or rejects with Interrupted at the first signal. The work is not stopped: it goes on
   * unawaited while the run cleans up, and its failure then (the stack stops under it) is not reported.
   */
  race<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.onInterrupt(reject);
      work.then(resolve, reject);
    });
  }

  /** Throws Interrupted when a signal has come: for a step that was not raced (one that must finish, as the stack's start). */
  throwIfInterrupted(): void {
    if (this.reason) throw this.reason;
  }

  private receive(signal: StopSignal): void {
    if (this.reason) {
      this.log(`${signal} again: exiting at once, without cleaning up`);
      this.source.exit(signalExitCode(signal));
      return;
    }
    this.reason = new Interrupted(signal);
    this.log(`${signal}: stopping the stack and writing the report (${signal} again exits at once, without cleaning up)`);
    // What the run left unawaited fails as the stack stops under it: said, not fatal, so the clean-up finishes.
    this.source.on('unhandledRejection', (error) => this.log(`after ${signal}, ignored: ${error instanceof Error ? error.message : String(error)}`));
    for (const listener of this.listeners.splice(0)) listener(this.reason);
  }
}
