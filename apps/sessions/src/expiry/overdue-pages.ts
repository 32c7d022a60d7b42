import type { OverdueCheckoutSession, OverdueSessionsCursor } from '@pp/contracts';

export interface OverduePaging {
  /** Sessions asked for at once. */
  pageSize: number;
  /** Pages per sweep at most, so one sweep ends and a backlog is worked off by the sweeps that follow. */
  maxPages: number;
}

export interface OverdueSweepOutcome {
  expired: number;
  failed: number;
  /** Why the first failure failed, to log. */
  firstError?: unknown;
  /**
   * Where the next sweep starts, when this one stopped at pages that wholly
   * failed: after them, so sessions that always fail hold back the ones
   * behind them for one sweep, not for good. A sweep that gets through (or
   * stops at its page limit) leaves none, and the next starts at the front.
   */
  resumeAfter?: OverdueSessionsCursor;
}

/** In a row, pages whose every expiry failed: the ledger is most likely down, and the next sweep tries again. */
const WHOLLY_FAILED_PAGES_TO_STOP = 2;

/**
 * Works through the overdue sessions page by page, each page after the last
 * one's (deadline, id), expiring a page's sessions at once. A session that
 * fails stays PENDING for the next sweep and is stepped past: a run of
 * sessions that always fail cannot hold back every later one. Two pages in a
 * row where everything failed end the sweep early (the ledger is most likely
 * down), and name where the next sweep starts (`resumeAfter`).
 */
export async function sweepOverduePages(
  page: (after: OverdueSessionsCursor | undefined) => Promise<OverdueCheckoutSession[]>,
  expire: (session: OverdueCheckoutSession) => Promise<boolean>,
  { pageSize, maxPages }: OverduePaging,
  startAfter?: OverdueSessionsCursor,
): Promise<OverdueSweepOutcome> {
  const outcome: OverdueSweepOutcome = { expired: 0, failed: 0 };
  let after = startAfter;
  let whollyFailed = 0;
  for (let pages = 0; pages < maxPages; pages++) {
    const sessions = await page(after);
    const results = await Promise.allSettled(sessions.map(expire));
    const failures = results.filter((result) => result.status === 'rejected');
    outcome.expired += results.filter((result) => result.status === 'fulfilled' && result.value).length;
    outcome.failed += failures.length;
    if (failures.length > 0) outcome.firstError ??= failures[0].reason;
    whollyFailed = sessions.length > 0 && failures.length === sessions.length ? whollyFailed + 1 : 0;
    if (sessions.length === 0) break;
    const last = sessions[sessions.length - 1];
    after = { expires_at: last.expires_at, session_id: last.session_id };
    if (whollyFailed >= WHOLLY_FAILED_PAGES_TO_STOP) {
      outcome.resumeAfter = after;
      break;
    }
    if (sessions.length < pageSize) break;
  }
  return outcome;
}
