/** Totals a process counts from its start (GC pauses, NATS messages), as read at one moment. */
export interface ProcessTotals {
  pid: number;
}

/**
 * Each service's totals after a path, with what it had counted before the
 * path: its earlier reading when the same process gave both, else `zero`
 * (a service restarted in between counts from its start).
 */
export function sinceSameProcess<T extends ProcessTotals>(
  before: Map<string, T>,
  after: Map<string, T>,
  zero: Omit<T, 'pid'>,
): Array<[service: string, now: T, earlier: Omit<T, 'pid'>]> {
  return [...after].map(([service, now]) => {
    const then = before.get(service);
    return [service, now, then?.pid === now.pid ? then : zero];
  });
}
