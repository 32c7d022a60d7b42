/** V8's collector, present when the process runs with --expose-gc (SERVICE_NODE_FLAGS). */
type Collector = (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void;

/**
 * Gives back the memory a service holds and no longer needs: once when its
 * start-up is done, just before it reports ready, and again whenever it has
 * gone quiet after work (idle-memory.watch.ts).
 *
 * V8's memory reducer is meant to do this when a process goes idle, but it
 * judges the allocation rate from the last collections it saw, which were
 * start-up's: on Node 24 it keeps waiting ("high alloc") in a service that
 * then idles, and the old space stays committed a third larger than what it
 * holds. So: one full collection, then V8's "last resort" one, which also
 * compacts and returns the freed pages to the system. Node 20's V8 ignores
 * the second call's options (it collects nothing); after the first, its own
 * memory reducer runs as it should. Measured on the gateway's modules alone
 * on Node 24: 120-121 → 100-101 MB RSS (docs/PERFORMANCE.md, "Memory: Node 24,
 * and after load").
 *
 * Without --expose-gc (node run by hand without the service flags) it does
 * nothing. Node 22 and 24 take the options (Node 22: 116 → 98 MB, alone).
 */
export function releaseUnusedMemory(collector: Collector | undefined = (globalThis as { gc?: Collector }).gc): void {
  if (!collector) return;
  try {
    collector();
    collector({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } catch {
    // Memory only: a V8 that refused these options must not keep a service from starting.
  }
}
