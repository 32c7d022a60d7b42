/** What the Simulate panel knows of a pending test session. */
export interface SimulatableSession {
  id: string;
  reference: string;
  expires_at: string;
}

/**
 * Whether it is a preview session: the sessions service's preview handler gives each the reference `preview-<its own
 * id>`, which no merchant can give a session of theirs (the id is drawn after the reference is sent).
 */
export const isPreviewSession = (session: SimulatableSession): boolean => session.reference === `preview-${session.id}`;

/**
 * The merchant's current preview session among those listed: the one whose deadline the preview last moved (an older
 * one may still be pending once its stream was full and a new one took its place), or undefined when none is listed.
 */
export function previewSessionIn(sessions: readonly SimulatableSession[]): SimulatableSession | undefined {
  return sessions.filter(isPreviewSession).reduce<SimulatableSession | undefined>((latest, session) => (!latest || Date.parse(session.expires_at) > Date.parse(latest.expires_at) ? session : latest), undefined);
}

/**
 * The session a simulation would pay: the user's choice while it is listed, else the preview session, else none, and
 * the user must choose. Never the newest session by default: it may be a CI's, whose payment fires its webhooks.
 */
export function sessionToSimulate(sessions: readonly SimulatableSession[], chosen: string | undefined): string | undefined {
  if (chosen !== undefined && sessions.some((session) => session.id === chosen)) return chosen;
  return previewSessionIn(sessions)?.id;
}
