/**
 * One run per key at a time: a second request for a key whose run is still
 * under way shares it. The sweeper may pick up an e-mail whose inline
 * processing is still queued for a worker; it must not cost a second run.
 */
export class SingleFlight<T> {
  private readonly running = new Map<string, Promise<T>>();

  run(key: string, start: () => Promise<T>): Promise<T> {
    let run = this.running.get(key);
    if (!run) {
      run = start().finally(() => this.running.delete(key));
      this.running.set(key, run);
    }
    return run;
  }
}
