import type { AuthenticationResult } from './authentication.types';
import { authenticateNotice, type AuthenticationPolicy, DkimKeyUnavailableError } from './notice-authenticator';

/**
 * What an authentication worker posts back: a verdict, or the DNS trouble
 * that is no verdict (an Error loses its class on the way between threads).
 */
export type AuthenticationAnswer = { verdict: AuthenticationResult } | { keyUnavailable: string };

/** In the worker: authenticates one message. Any other error is left to kill the worker (the pool reports it). */
export async function answerAuthentication(raw: Uint8Array, policy: AuthenticationPolicy): Promise<AuthenticationAnswer> {
  try {
    return { verdict: await authenticateNotice(raw, policy) };
  } catch (error) {
    if (error instanceof DkimKeyUnavailableError) return { keyUnavailable: error.detail };
    throw error;
  }
}

/** On the service's side: the verdict, or the DkimKeyUnavailableError authenticateNotice threw in the worker. */
export function verdictOf(answer: AuthenticationAnswer): AuthenticationResult {
  if ('keyUnavailable' in answer) throw new DkimKeyUnavailableError(answer.keyUnavailable);
  return answer.verdict;
}
