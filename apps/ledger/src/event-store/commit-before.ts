import type { AppendStreamsRequest } from '@pp/contracts';

/**
 * Whether an append must not commit at `now` (ms): it writes, and its `commit_before` has come. A decision that held
 * only until then (a session open until its deadline) would otherwise commit after it, and readers that already saw
 * its opposite (the session EXPIRED) would see it undone. A replay writes nothing: it is answered whatever the time.
 */
export function isPastCommitBefore(request: AppendStreamsRequest, writes: boolean, now: number): boolean {
  return writes && request.commit_before !== undefined && Date.parse(request.commit_before) <= now;
}
