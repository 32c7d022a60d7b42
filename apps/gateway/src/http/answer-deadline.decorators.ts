import { AddRouteConfig } from './route-config';

/** The route makes a call with its own timeout, longer than NATS_REQUEST_TIMEOUT_MS: its answer may take that long, and the usual time for the rest. */
export const LongestCall = (ms: number) => AddRouteConfig({ answerDeadline: { longestCallMs: ms } });

/**
 * As LongestCall, for a route that takes an upload (a raw e-mail of megabytes): its clock starts at the body's last
 * byte, not at its headers, so the time the upload took (the client's, which the 408 bounds) is not taken from its call.
 */
export const LongestCallAfterUpload = (ms: number) => AddRouteConfig({ answerDeadline: { longestCallMs: ms, fromBody: true } });

/** The route answers for as long as its client listens (an event stream): no answer deadline, and its bus calls none either. */
export const NoAnswerDeadline = () => AddRouteConfig({ answerDeadline: 'none' });

/**
 * The route makes its change in the gateway's own database and shows a secret it made once (a merchant with its keys,
 * an API key, a platform admin, a password): it is answered when that change ends, each of its statements bounded by
 * the statement timeout. A 503 before then would lose the secret for good: the change commits all the same, and its
 * retry finds it recorded and answers 409 without the secret (creation-requests.ts).
 */
export const AnsweredWhenItsChangeEnds = () => AddRouteConfig({ answerDeadline: 'none' });
