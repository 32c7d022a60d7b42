import type { ListMerchantEventsQuery, ListPage } from '@pp/contracts';
import { FROM_START_MS, type FollowState, isBeyondWindow, isHandled, SETTLE_WINDOW_MS } from '@pp/sdk';

/*
 * An event stream's look at the ledger's event log, read forward a page at a
 * time: it begins at the settle window's edge behind the newest event the
 * stream handled (the log's start when it handled none), and each page
 * continues after the last event of the one before, until a page says there
 * is no more. A stream holds one page, however long the log it catches up.
 * Pure: the stream requests the pages and keeps the follow state.
 */

/** Where a page of an oldest-first `ledger.merchant-events.list.v1` begins. */
export type PageStart = Pick<ListMerchantEventsQuery, 'starting_after' | 'created_since'>;

interface LoggedEvent {
  id: string;
  created_at: string;
}

/** The first page of a look: every event created since the settle window's edge, one that committed late included. */
export function lookStart(state: FollowState): PageStart {
  if (state.since_ms === FROM_START_MS) return {};
  return { created_since: new Date(state.since_ms - SETTLE_WINDOW_MS).toISOString() };
}

/** The page after `page`, or undefined once the look has read to the end of the log. */
export function nextPageStart(page: ListPage<LoggedEvent>): PageStart | undefined {
  const last = page.data[page.data.length - 1];
  return page.has_more && last ? { starting_after: last.id } : undefined;
}

/** Whether the stream has yet to send `event`: not handled, nor behind the settle window (where the follow state no longer knows whether it was). */
export const stillToSend = (state: FollowState, event: LoggedEvent): boolean => !isHandled(state, event) && !isBeyondWindow(state, event);
