import {
  type Aggregate,
  atSchemaVersion1,
  type CheckoutPreviewEvent,
  CheckoutPreviewEventType,
  type CheckoutSessionEvent,
  checkoutPreviewStreamId,
  type SessionCreatedV1,
} from '@pp/contracts';
import { type CheckoutSession, decide as decideSession, isOpen } from '../checkout-session/checkout-session.decider';

/*
 * The dashboard's preview checkout as a pure decider: one stable test session
 * per merchant. While it is open (PENDING, before its deadline) opening the
 * preview moves its deadline one session lifetime from now; once it is
 * completed, expired or past its deadline, a new session becomes the preview
 * one. Both aggregates are appended together, so concurrent opens end on one.
 */

/**
 * The events a preview session's stream may hold before a new session takes
 * its place: each open adds one, and a stream is read whole, so a preview
 * opened again and again (a script, a busy team) would grow it past what one
 * bus answer can carry and the session could no longer be loaded.
 */
export const MAX_PREVIEW_SESSION_EVENTS = 100;

/** The merchant's preview: the id of its current session, or null before the first. */
export type CheckoutPreviewState = { session_id: string } | null;

export interface OpenPreviewCommand {
  now: Date;
  ttlSeconds: number;
  /** How many events the current preview session's stream holds (its version; 0 without one). */
  currentVersion: number;
  /** The session to create when a new one is needed (its id, memo and secret drawn by the handler). */
  candidate: Omit<SessionCreatedV1, 'created_at' | 'expires_at' | 'currency'>;
}

export interface PreviewDecision {
  /** The session the preview opens: the current one, or the candidate. */
  sessionId: string;
  /** Events of that session's stream (its creation, or its later deadline; none when the deadline would not move). */
  session: CheckoutSessionEvent[];
  /** Events of the preview's own stream: non-empty when the candidate becomes the preview session. */
  preview: CheckoutPreviewEvent[];
}

export function decidePreview(state: CheckoutPreviewState, current: CheckoutSession | null, command: OpenPreviewCommand): PreviewDecision {
  const reusable = state && current && current.id === state.session_id && command.currentVersion < MAX_PREVIEW_SESSION_EVENTS;
  if (reusable && isOpen(current, command.now)) {
    return { sessionId: current.id, session: decideSession(current, { kind: 'extend', now: command.now, ttlSeconds: command.ttlSeconds }), preview: [] };
  }
  const { candidate } = command;
  return {
    sessionId: candidate.session_id,
    session: decideSession(null, { kind: 'create', now: command.now, ttlSeconds: command.ttlSeconds, session: candidate }),
    preview: [
      atSchemaVersion1({
        type: CheckoutPreviewEventType.SessionChosen,
        data: { merchant_id: candidate.merchant_id, session_id: candidate.session_id, chosen_at: command.now.toISOString() },
      }),
    ],
  };
}

export function evolvePreview(state: CheckoutPreviewState, event: CheckoutPreviewEvent): CheckoutPreviewState {
  return event.type === CheckoutPreviewEventType.SessionChosen ? { session_id: event.data.session_id } : state;
}

/**
 * The preview aggregate as the runtime loads it: one stream per merchant, never closed, which gains an event each time
 * a new session becomes the preview one. The last of them alone names the current session, so only it is read: the
 * stream read whole would outgrow one bus answer after a few thousand renewals, and the preview could no longer open.
 */
export const checkoutPreviewAggregate: Aggregate<CheckoutPreviewState, CheckoutPreviewEvent> = {
  streamId: checkoutPreviewStreamId,
  initial: null,
  evolve: evolvePreview,
  foldsLast: 1,
};
