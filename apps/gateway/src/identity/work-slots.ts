/** The slots were all taken and so was every place in line: the caller should answer "busy", not wait. */
export class NoSlotFree extends Error {
  constructor() {
    super('every slot and every place in line is taken');
  }
}

/**
 * Runs at most `slots` pieces of work at once and lets at most `line` more
 * wait for a slot, in order; past that, refuses at once (NoSlotFree). For
 * work that takes a thread of libuv's pool each (scrypt): unbounded, a flood
 * of sign-ins would take every thread, and every DNS lookup, file read and
 * other hash of the process would wait behind them.
 */
export class WorkSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly slots: number,
    private readonly line: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.slots) {
      if (this.waiting.length >= this.line) throw new NoSlotFree();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next(); // the slot passes to the next in line, still counted as running
      else this.running -= 1;
    }
  }
}
