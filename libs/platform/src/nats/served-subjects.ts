import { HEALTH_ACCESS, inboxPrefixOf, SUBJECT_REGISTRY, type ServiceName, type SubjectAccess, TEST_CLIENT } from '@pp/contracts';

/** Every request-reply subject with who serves it and who may call it: the typed registry and each service's health subject. */
export const REQUEST_REPLY_ACCESS: Readonly<Record<string, SubjectAccess>> = { ...SUBJECT_REGISTRY, ...HEALTH_ACCESS };

/**
 * What is wrong between the handlers one process registered (one pattern per
 * handler, repeated when two handle the same subject) and the subjects the
 * registry gives its service: each must have exactly one handler, and the
 * process must serve nothing else. Empty when they agree; the transport
 * refuses to start otherwise (like Immich's job registry).
 */
export function handlerMismatches(
  service: ServiceName,
  patterns: readonly string[],
  registry: Readonly<Record<string, SubjectAccess>> = REQUEST_REPLY_ACCESS,
): string[] {
  const handlers = new Map<string, number>();
  for (const pattern of patterns) handlers.set(pattern, (handlers.get(pattern) ?? 0) + 1);
  const problems: Array<[subject: string, problem: string]> = [];
  for (const [subject, access] of Object.entries(registry)) {
    if (access.servedBy !== service) continue;
    const count = handlers.get(subject) ?? 0;
    if (count === 0) problems.push([subject, `no handler for ${subject}`]);
    if (count > 1) problems.push([subject, `${count} handlers for ${subject}`]);
  }
  for (const subject of handlers.keys()) {
    const access = Object.hasOwn(registry, subject) ? registry[subject] : undefined;
    if (!access) problems.push([subject, `a handler for ${subject}, which is not in the subject registry`]);
    else if (access.servedBy !== service) problems.push([subject, `a handler for ${subject}, which the registry gives to ${access.servedBy}`]);
  }
  return problems.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, problem]) => problem);
}

/**
 * Where the answer to a request on `subject` may go: the inboxes of its
 * callers, and of the test harness (an identity only `npm test` has). The
 * server lets a responder publish to any reply subject it is handed
 * (allow_responses), so without this a caller could have a service publish
 * its answer on any subject, another service's included. The server does not
 * say which caller sent a request, so one caller of a subject could still
 * name another caller's inbox; each request's reply subject ends in a random
 * token of 128 bits (ReplyInbox), so it cannot name one a request waits on.
 */
export function replyInboxes(subject: string, registry: Readonly<Record<string, SubjectAccess>> = REQUEST_REPLY_ACCESS): string[] {
  const access = Object.hasOwn(registry, subject) ? registry[subject] : undefined;
  return [...(access?.callers ?? []), TEST_CLIENT].map((caller) => `${inboxPrefixOf(caller)}.`);
}
