/**
 * One answer of `work` at a time, shared by every caller while it runs and given again for `reuseMs` after it
 * ended: for public probes, where each check costs every dependency a round trip.
 */
export class RecentAnswer<T> {
  private latest?: { answer: Promise<T>; endedAt?: number };

  constructor(
    private readonly work: () => Promise<T>,
    private readonly reuseMs: number,
  ) {}

  get(now = Date.now()): Promise<T> {
    const latest = this.latest;
    if (latest && (latest.endedAt === undefined || now - latest.endedAt < this.reuseMs)) return latest.answer;
    const checking: { answer: Promise<T>; endedAt?: number } = { answer: this.work() };
    const ended = () => (checking.endedAt = Date.now());
    checking.answer.then(ended, ended);
    this.latest = checking;
    return checking.answer;
  }
}
