/**
 * A sleep that a signal cuts short, and that remembers a signal given while
 * nobody sleeps: a commit notification that arrives while the publisher is
 * reading a page (which may have missed that commit) makes its next sleep
 * return at once instead of waiting out the poll.
 */
export class WakeSignal {
  private signalled = false;
  private sleeper?: () => void;

  signal(): void {
    this.signalled = true;
    this.sleeper?.();
  }

  /** Waits `ms`, or less if a signal comes (or came since the last sleep ended). */
  sleep(ms: number): Promise<void> {
    if (this.signalled) {
      this.signalled = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleeper = undefined;
        this.signalled = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleeper = done;
    });
  }
}
