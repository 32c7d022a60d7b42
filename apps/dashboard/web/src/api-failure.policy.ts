import { ApiError } from './api';
import type { Messages } from './i18n';

/**
 * The words to show for a failed call, never empty (an empty one shows nothing beside a button, and leaves a list
 * "Loading…" for good): the server's own `{ error }` text; for an answer without one (a proxy's HTML error page, and
 * over HTTP/2 not even a status text) the status it answered, in the reader's language; for a failure with no words
 * at all, a general one.
 */
export function failureText(failure: unknown, t: Pick<Messages, 'serverAnswered' | 'requestFailed'>): string {
  const message = failure instanceof Error ? failure.message : String(failure ?? '');
  if (message.trim() !== '') return message;
  return failure instanceof ApiError ? `${t.serverAnswered} ${failure.status}` : t.requestFailed;
}

/**
 * Whether a failed read of the session means the user is signed out: a 401 only. Any other failure (a 503, a 429, no
 * answer at all) says nothing of the session, so the sign-in form would be a wrong answer: the app offers to try again.
 */
export const meansSignedOut = (failure: unknown): boolean => failure instanceof ApiError && failure.status === 401;
