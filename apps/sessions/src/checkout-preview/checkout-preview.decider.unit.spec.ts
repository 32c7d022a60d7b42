import { CheckoutPreviewEventType, CheckoutSessionEventType, ErrorCode } from '@pp/contracts';
import { refusalOf } from '@pp/testing';
import { type CheckoutSession, decide, fold } from '../checkout-session/checkout-session.decider';
import { type CheckoutPreviewState, decidePreview, MAX_PREVIEW_SESSION_EVENTS, type OpenPreviewCommand } from './checkout-preview.decider';

const T0 = new Date('2026-11-22T01:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const candidate = (id: string): OpenPreviewCommand['candidate'] => ({
  session_id: id,
  merchant_id: 'mer_1',
  livemode: false,
  amount: 2500,
  reference: `preview-${id}`,
  memo: 'PP-7K3M9Q',
  client_secret: 'secret',
  success_url: 'http://127.0.0.1:3002/developers',
  cancel_url: 'http://127.0.0.1:3002/developers',
  metadata: null,
});
const open = (seconds: number, id = 'cs2', currentVersion = 1): OpenPreviewCommand => ({ now: at(seconds), ttlSeconds: 1800, currentVersion, candidate: candidate(id) });

/** The preview session cs1, created at T0 (deadline T0 + 30 min), then what happened to it. */
const previewSession = (...then: Parameters<typeof decide>[1][]): CheckoutSession =>
  then.reduce(
    (session, command) => fold(decide(session, command), session) as CheckoutSession,
    fold(decide(null, { kind: 'create', now: T0, ttlSeconds: 1800, session: candidate('cs1') })) as CheckoutSession,
  );
const chosen: CheckoutPreviewState = { session_id: 'cs1' };

describe('checkout preview decider', () => {
  it('given no preview yet, when opened: a new session becomes the preview session', () => {
    const decision = decidePreview(null, null, open(0, 'cs1', 0));
    expect(decision.sessionId).toBe('cs1');
    expect(decision.session).toEqual([expect.objectContaining({ type: CheckoutSessionEventType.Created, data: expect.objectContaining({ session_id: 'cs1', livemode: false, expires_at: at(1800).toISOString() }) })]);
    expect(decision.preview).toEqual([
      { type: CheckoutPreviewEventType.SessionChosen, schema_version: 1, data: { merchant_id: 'mer_1', session_id: 'cs1', chosen_at: T0.toISOString() } },
    ]);
  });

  it('given a PENDING preview session, when opened 10 minutes later: the same session, its deadline 30 minutes from now', () => {
    const decision = decidePreview(chosen, previewSession(), open(600));
    expect(decision.sessionId).toBe('cs1');
    expect(decision.preview).toEqual([]);
    expect(decision.session).toEqual([
      {
        type: CheckoutSessionEventType.ExpiryExtended,
        schema_version: 1,
        data: { session_id: 'cs1', expires_at: at(2400).toISOString(), extended_at: at(600).toISOString() },
      },
    ]);
    expect(fold(decision.session, previewSession())?.expires_at).toBe(at(2400).toISOString());
  });

  it('given a PENDING preview session, when opened at the instant it was created: nothing to record (the deadline would not move)', () => {
    expect(decidePreview(chosen, previewSession(), open(0))).toEqual({ sessionId: 'cs1', session: [], preview: [] });
  });

  it('given a PENDING preview session already extended to its limit of events, when opened again: a new session takes its place (its stream would grow past what one read can carry)', () => {
    expect(decidePreview(chosen, previewSession(), open(600, 'cs2', MAX_PREVIEW_SESSION_EVENTS - 1)).sessionId).toBe('cs1');
    const decision = decidePreview(chosen, previewSession(), open(600, 'cs2', MAX_PREVIEW_SESSION_EVENTS));
    expect(decision.sessionId).toBe('cs2');
    expect(decision.preview).toEqual([expect.objectContaining({ type: CheckoutPreviewEventType.SessionChosen, data: expect.objectContaining({ session_id: 'cs2' }) })]);
  });

  it('given a completed preview session, when opened: a new session becomes the preview session', () => {
    const decision = decidePreview(chosen, previewSession({ kind: 'complete', now: at(60), transactionId: 'txn_1' }), open(120));
    expect(decision.sessionId).toBe('cs2');
    expect(decision.session.map((event) => event.type)).toEqual([CheckoutSessionEventType.Created]);
    expect(decision.preview[0].data.session_id).toBe('cs2');
  });

  it('given an expired preview session, or one past its deadline not yet expired, when opened: a new session', () => {
    expect(decidePreview(chosen, previewSession({ kind: 'expire', now: at(1800) }), open(1900)).sessionId).toBe('cs2');
    expect(decidePreview(chosen, previewSession(), open(1800)).sessionId).toBe('cs2');
  });
});

describe('checkout session decider: extend', () => {
  it('given a session past its deadline, when extended: refused as expired', () => {
    expect(refusalOf(() => decide(previewSession(), { kind: 'extend', now: at(1800), ttlSeconds: 1800 }))).toMatchObject({ code: ErrorCode.Conflict, message: 'Checkout session expired' });
  });

  it('given a completed session, when extended: refused as completed', () => {
    const completed = previewSession({ kind: 'complete', now: at(60), transactionId: null });
    expect(refusalOf(() => decide(completed, { kind: 'extend', now: at(120), ttlSeconds: 1800 }))).toMatchObject({ code: ErrorCode.Conflict, message: 'Checkout session already completed' });
  });
});
