import { readFileSync } from 'node:fs';
import type { CheckoutClient } from '../client';
import { ApiError, AuthenticationError, CheckoutError, InvalidRequestError, NotFoundError, PermissionError } from '../errors';
import { followFromStart, followAfter, followAfterAll, type FollowState, isHandled, recordHandled } from '../events/follow-state';
import { delay } from '../http/abort';
import { parseRetryAfter } from '../http/retry.policy';
import type { Event } from '../types';
import { writePrivateFile } from './private-file';

/** `--since start`: everything the event log holds. */
export const FROM_START = 'start';
/** The newest events a first run counts as handled: the API's largest page. */
const NEWEST_PAGE = 50;
export interface FollowOptions {
  /** Where the state is kept across restarts. */
  statePath: string;
  /** An event id to continue after, or `start`; overrides the saved state. */
  since?: string;
  /** Wait before connecting again after the stream ended; longer after failures in a row (reconnectWait). */
  intervalMs: number;
  signal: AbortSignal;
  /** Handle one event; false leaves it (and what follows) for the next connection, and counts as a failure. */
  handle: (event: Event) => Promise<boolean>;
  onError: (error: unknown) => void;
  /** Called once the starting point is known: events after this moment are sure to be handled. */
  onReady?: () => void;
}

/**
 * Follows the merchant's events through the gateway's stream
 * (GET /v1/events/stream, fed from the ledger's durable event log), saving
 * its place after each event and reconnecting with Last-Event-ID whenever
 * the stream ends, so a restart of either side loses nothing and repeats
 * nothing that was handled and saved (the handled ids absorb what the
 * gateway sends again around the resume point). A crash between handling an
 * event and saving the state hands that event over again on the next run:
 * at least once, not exactly once. A first run without --since starts after
 * the events the log holds (a page of the newest counted as handled). Stops, throwing, on an answer that would come back the
 * same on every connection (lastingRefusal); any other failure is retried,
 * later each time in a row: a stream that fails or goes silent (the
 * transport's idle limit), or an event the handler leaves (a receiver that
 * cannot be reached).
 */
export async function followEvents(client: CheckoutClient, options: FollowOptions): Promise<void> {
  let state = options.since === undefined ? readState(options.statePath) : undefined;
  let ready = false;
  let failures = 0;
  while (!options.signal.aborted) {
    let handledAny = false;
    let asked = 0;
    // A failure after progress starts the count again: it is the first of a new run.
    const failed = () => (failures = handledAny ? 1 : failures + 1);
    try {
      if (state === undefined) {
        state = await startingState(client, options.since, options.signal);
        saveState(options.statePath, state);
      }
      if (!ready) {
        ready = true;
        options.onReady?.();
      }
      let left = false;
      for await (const event of client.events.stream(resumeFrom(state), { signal: options.signal })) {
        if (isHandled(state, event)) continue;
        if (!(await options.handle(event))) {
          left = true;
          break;
        }
        state = recordHandled(state, event);
        saveState(options.statePath, state);
        handledAny = true;
      }
      if (left) failed();
      else failures = 0;
    } catch (error) {
      if (options.signal.aborted) return;
      const refusal = lastingRefusal(error);
      if (refusal) throw refusal;
      failed();
      asked = askedWait(error);
      options.onError(error);
    }
    await delay(Math.max(reconnectWait(options.intervalMs, failures), asked), options.signal);
  }
}

/**
 * A refusal that no reconnection can change, with what the user can do
 * instead: a starting point the gateway does not know (a saved
 * Last-Event-ID past the log's retention, a mistyped --since) is a 404 or a
 * 400, a revoked or wrong key a 401, a key that may not read events (a
 * restricted key without events.read, a publishable key) a 403.
 */
function lastingRefusal(error: unknown): CheckoutError | undefined {
  if (error instanceof AuthenticationError) return new CheckoutError(`${error.message}: the key was refused; run \`login\` with a valid key, or pass --api-key`, { cause: error });
  if (error instanceof PermissionError) {
    return new CheckoutError(`${error.message}: the key may not read events; use a secret key, or a restricted key with the events.read scope`, { cause: error });
  }
  if (error instanceof NotFoundError || error instanceof InvalidRequestError) {
    return new CheckoutError(`${error.message}: the gateway cannot resume from the saved or given event; run again with --since start (or an event id it still holds)`, { cause: error });
  }
  return undefined;
}

const FIRST_RETRY_WAIT_MS = 250;
const MAX_RETRY_WAIT_MS = 60_000;

/**
 * The wait before connecting again: the interval after a stream that ended,
 * doubling with each failure in a row up to a minute. A failure that comes
 * back on every connection (a message that is not an event is sent again
 * after the same resume point, a receiver that is down) must not be retried
 * at the interval for ever. A refusal with Retry-After waits at least that
 * long (askedWait).
 */
export function reconnectWait(intervalMs: number, failures: number): number {
  if (failures === 0) return intervalMs;
  const backoff = Math.max(intervalMs, FIRST_RETRY_WAIT_MS) * 2 ** Math.min(failures - 1, 20);
  return Math.max(intervalMs, Math.min(MAX_RETRY_WAIT_MS, backoff));
}

/** Longer than the CLI's longest --interval: a Retry-After beyond it is waited for this long, a timer's delay kept in range. */
const MAX_ASKED_WAIT_MS = 3_600_000;

/**
 * The wait the gateway asked for with Retry-After (a 429: the key's request budget spent, or its open streams at the
 * limit; a 503), read as the transport reads it; 0 when it asked none. Connecting again sooner would be refused again,
 * each refused connection counted against the key's budget.
 */
function askedWait(error: unknown): number {
  if (!(error instanceof ApiError)) return 0;
  return Math.min(parseRetryAfter(error.headers.get('retry-after'), Date.now()) ?? 0, MAX_ASKED_WAIT_MS);
}

/** After the newest event handled, or from the start when none was. */
function resumeFrom(state: FollowState): { lastEventId?: string; since?: string } {
  const newest = Object.entries(state.handled).sort(([, a], [, b]) => b - a)[0];
  return newest ? { lastEventId: newest[0] } : { since: FROM_START };
}

async function startingState(client: CheckoutClient, since: string | undefined, signal: AbortSignal): Promise<FollowState> {
  if (since === FROM_START) return followFromStart();
  if (since) return followAfter(await client.events.retrieve(since, { signal }));
  return followAfterAll((await client.events.list({ limit: NEWEST_PAGE }, { signal }).firstPage()).data);
}

function readState(path: string): FollowState | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<FollowState>;
    return typeof parsed.since_ms === 'number' && typeof parsed.handled === 'object' && parsed.handled !== null ? (parsed as FollowState) : undefined;
  } catch {
    return undefined;
  }
}

/** Replaced whole (writePrivateFile): a torn file reads as no state, and the next run would start after the newest event, skipping the ones missed. */
function saveState(path: string, state: FollowState): void {
  writePrivateFile(path, JSON.stringify(state));
}
