import { AddRouteConfig } from './route-config';

/** The route makes a call with its own timeout, longer than NATS_REQUEST_TIMEOUT_MS: its answer may take that long, and the usual time for the rest. */
export const LongestCall = (ms: number) => AddRouteConfig({ answerDeadline: { longestCallMs: ms } });

/** The route answers for as long as its client listens (an event stream): no answer deadline, and its bus calls none either. */
export const NoAnswerDeadline = () => AddRouteConfig({ answerDeadline: 'none' });
