import type { ErrorAnswer } from './client-error';

/**
 * The answer to a command that lost every round to concurrent writes (CommandRunner). The ledger's own wording names
 * stream ids and versions, which are the platform's, not the client's: a fixed message instead, and a retry, which
 * runs on the state the concurrent writes left. Other 409s are the domain's answers and keep their words.
 */
export const CONCURRENCY_CONFLICT_ANSWER: ErrorAnswer = { status: 409, message: 'Too many concurrent changes; retry', headers: { 'Retry-After': '1' } };
