import { EVENT_ID_PATTERN } from '../api-rules';
import { withoutUserinfo } from '../http/key-in-clear';
import { EVENT_TYPES, type EventType, PAYMENT_STATUSES, type PaymentStatus } from '../types';
import { redactSecrets } from '../redact-secrets';
import { integerOption, listOption, type ParsedArgs, stringOption, UsageError } from './args';
import { FROM_START } from './event-follower';

/*
 * Option values checked before any request: a wrong one would otherwise be
 * sent and refused by the gateway on every reconnection, or quietly match
 * nothing (an --events filter with a typo forwards no event at all).
 */

/** A longer timer overflows Node's 2^31-1 ms and fires after 1 ms; an hour is already longer than anyone waits. */
const MAX_INTERVAL_MS = 60 * 60 * 1000;
/** A shorter one (0 included) would reconnect to the gateway in a tight loop whenever the stream ends. */
export const MIN_INTERVAL_MS = 100;

/** `value` when it is one of `choices`; `what` names them in the refusal. */
function oneOf<T extends string>(what: string, choices: readonly T[], value: string | undefined): T | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) throw new UsageError(`Unknown ${what} ${redactSecrets(value)}; one of: ${choices.join(', ')}`);
  return value as T;
}

export const eventTypeOption = (value: string | undefined): EventType | undefined => oneOf('event type', EVENT_TYPES, value);

/** `payments list --status`: the gateway refuses any other value (a 400), spelled as it is (upper case). */
export const paymentStatusOption = (value: string | undefined): PaymentStatus | undefined => oneOf('payment status', PAYMENT_STATUSES, value);

/** `--events a,b`: event types, or `*` for all. */
export function eventTypesOption(args: ParsedArgs): string[] | undefined {
  const types = listOption(args, 'events');
  if (types === undefined) return undefined;
  if (types.length === 0) throw new UsageError('--events needs at least one event type, or * for all');
  for (const type of types) if (type !== '*') eventTypeOption(type);
  return types;
}

/** `--since evt_…|start`. */
export function sinceOption(args: ParsedArgs): string | undefined {
  const since = stringOption(args, 'since');
  if (since !== undefined && since !== FROM_START && !EVENT_ID_PATTERN.test(since)) throw new UsageError(`--since takes an event id (evt_…) or "${FROM_START}"`);
  return since;
}

/** `--interval <ms>`, default one second, from MIN_INTERVAL_MS to an hour. */
export function intervalOption(args: ParsedArgs): number {
  const interval = integerOption(args, 'interval') ?? 1000;
  if (interval < MIN_INTERVAL_MS) throw new UsageError(`--interval is in milliseconds, at least ${MIN_INTERVAL_MS} (got ${interval})`);
  if (interval > MAX_INTERVAL_MS) throw new UsageError(`--interval is in milliseconds, at most ${MAX_INTERVAL_MS} (one hour)`);
  return interval;
}

/**
 * `listen --forward-to <url>`: parsed now, so that a URL fetch cannot use (`http://`, one with a password, which fetch
 * refuses quoting it) stops the command at once rather than failing every delivery, each kept and retried for ever.
 */
export function forwardToOption(args: ParsedArgs): string {
  const forwardTo = stringOption(args, 'forward-to');
  if (forwardTo === undefined) throw new UsageError('listen needs --forward-to <http(s) URL>');
  const shown = redactSecrets(withoutUserinfo(forwardTo));
  let url: URL;
  try {
    url = new URL(forwardTo);
  } catch {
    throw new UsageError(`--forward-to ${shown} is not a URL: give the receiver's whole address, such as http://localhost:4000/webhooks`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--forward-to ${shown} is not an http:// or https:// URL`);
  if (url.username || url.password) throw new UsageError(`--forward-to ${shown} holds a user name or password: fetch refuses such a URL (the receiver checks the signature instead)`);
  return forwardTo;
}
