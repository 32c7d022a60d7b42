/**
 * A submission of an action whose outcome is not known yet, as the tab remembers it: never its input (a webhook URL
 * may hold a token), only the input's fingerprint, and the Idempotency-Key it went under.
 */
export interface Unsettled {
  /** The one existing thing the action changes in place (the endpoint whose secret it rotates), or null (a creation). */
  changes: string | null;
  /** SHA-256 (hex) of the canonical JSON of its path and body. */
  fingerprint: string;
  key: string;
  /** When it was last sent (ms since the epoch). */
  sent_at: number;
}

export type Submission = Pick<Unsettled, 'changes' | 'fingerprint'>;

/**
 * How long an unsettled submission is worth retrying under its key: as long as the server answers a key again
 * (IDEMPOTENCY_RETENTION_SECONDS in contracts, 24 h; the unit spec checks they agree). Past it the server would take
 * the key for a new action anyway. Not imported: the contracts' index is not for the browser bundle.
 */
export const UNSETTLED_RETENTION_MS = 24 * 60 * 60 * 1000;

/** How many the tab keeps: each is a failed action the user has not retried, so more than this are long forgotten. */
export const MAX_UNSETTLED = 50;

const same = (a: Submission, b: Submission): boolean => a.changes === b.changes && a.fingerprint === b.fingerprint;

/** The ones still worth retrying at `now`, newest first, at most MAX_UNSETTLED. */
const current = (unsettled: readonly Unsettled[], now: number): Unsettled[] =>
  unsettled
    .filter((entry) => now - entry.sent_at < UNSETTLED_RETENTION_MS)
    .sort((a, b) => b.sent_at - a.sent_at)
    .slice(0, MAX_UNSETTLED);

/**
 * The Idempotency-Key to send `submission` with: an unsettled one's when this is that same action again (the user
 * retrying it, whatever they did in between, on this page or another of the tab), so the server answers what the
 * first one made instead of making it twice; a new key for anything else, changed input being another action.
 */
export function idempotencyKeyFor(unsettled: readonly Unsettled[], submission: Submission, now: number, newKey: () => string): string {
  return current(unsettled, now).find((entry) => same(entry, submission))?.key ?? newKey();
}

/** What the tab keeps once `sent` has gone out: it, in place of its earlier sending, and the rest while young and few enough. */
export function afterSending(unsettled: readonly Unsettled[], sent: Unsettled, now: number): Unsettled[] {
  return current([sent, ...unsettled.filter((entry) => !same(entry, sent))], now);
}

/** What became of a submission: an answer (2xx), a refusal of the action itself, or nothing known. */
export type Outcome = 'answered' | 'refused' | 'unknown';

/** The refusals that judge the action (bad input, not found, a conflict with what exists): what follows is a new one. */
const ACTION_REFUSALS: ReadonlySet<number> = new Set([400, 404, 409, 410, 413, 422]);

/**
 * No answer at all (`status` undefined), or a 5xx (a 503 when the service answered after the dashboard's deadline, or
 * made the change but could not record it), may have done its work all the same: its retry must send its key again.
 * So must a refusal that never reached the action (401 a session that ended, 403 a CSRF token or role checked first,
 * 408, 429 a budget): it says nothing of an earlier sending whose outcome is unknown, and forgetting the key there
 * would make the retry after signing in again a second creation.
 */
export const outcomeOfFailure = (status: number | undefined): Outcome => (status !== undefined && ACTION_REFUSALS.has(status) ? 'refused' : 'unknown');

/**
 * What the tab keeps once `sent` has its outcome. Unknown: kept, for its retry. Settled: forgotten, its next
 * submission being a new action. An answered change of a thing settles that thing's other unsettled changes too: it
 * has changed since, so their retry is a new action (a rotation retried after a "rotate now" rotates again, rather than
 * being answered the first rotation's secret, which the second one stopped).
 */
export function afterOutcome(unsettled: readonly Unsettled[], sent: Unsettled, outcome: Outcome): Unsettled[] {
  if (outcome === 'unknown') return [...unsettled];
  const supersedes = outcome === 'answered' && sent.changes !== null;
  return unsettled.filter((entry) => entry.key !== sent.key && !(supersedes && entry.changes === sent.changes));
}

/** The entries of what the tab stored, skipping anything else (storage written by another release, or by hand). */
export function storedUnsettled(text: string | null): Unsettled[] {
  let value: unknown;
  try {
    value = JSON.parse(text ?? '[]');
  } catch {
    return [];
  }
  return Array.isArray(value) ? value.filter(isUnsettled) : [];
}

function isUnsettled(value: unknown): value is Unsettled {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return (
    (entry.changes === null || typeof entry.changes === 'string') &&
    typeof entry.fingerprint === 'string' &&
    typeof entry.key === 'string' &&
    typeof entry.sent_at === 'number' &&
    Number.isFinite(entry.sent_at)
  );
}

/** JSON with every object's keys in order: one text, so one fingerprint, for one input however its object was built. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    typeof member === 'object' && member !== null && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );
}
