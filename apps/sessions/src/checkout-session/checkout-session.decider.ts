import {
  type Aggregate,
  type CheckoutSessionEvent,
  CheckoutSessionEventType,
  atSchemaVersion1,
  type CheckoutSessionStatus,
  checkoutSessionStreamId,
  DomainError,
  ErrorCode,
  MAX_AMOUNT_CENTS,
  type MerchantEvent,
  MerchantEventType,
  SESSION_COMPLETED_RULE,
  SESSION_EXPIRED_RULE,
  type SessionCreatedV1,
} from '@pp/contracts';

/*
 * The checkout-session aggregate as a pure decider (PRODUCT-RULES §3.1): `decide`
 * turns a command and the current state into new events (or refuses with a
 * DomainError), `evolve` folds events into state. No I/O, no clock, no
 * randomness: the handlers pass time and generated values in.
 */

export interface CheckoutSession extends Omit<SessionCreatedV1, 'session_id'> {
  id: string;
  status: CheckoutSessionStatus;
  completed_at: string | null;
  expired_at: string | null;
  transaction_id: string | null;
}

export type CheckoutSessionState = CheckoutSession | null;

export type CheckoutSessionCommand =
  | {
      kind: 'create';
      session: Omit<SessionCreatedV1, 'created_at' | 'expires_at' | 'currency'>;
      now: Date;
      ttlSeconds: number;
    }
  | { kind: 'complete'; now: Date; transactionId: string | null }
  /** `early`: the sandbox's "expire now" (test sessions only), which does not wait for the deadline. */
  | { kind: 'expire'; now: Date; early?: boolean }
  /** A later deadline, `ttlSeconds` from now, for an open session (the dashboard's preview checkout). */
  | { kind: 'extend'; now: Date; ttlSeconds: number };

/** Whether a payment arriving `now` may still complete the session (PRODUCT-RULES §3.1: PENDING and not past its deadline). */
export const isOpen = (session: CheckoutSession, now: Date): boolean =>
  session.status === 'PENDING' && now.getTime() < Date.parse(session.expires_at);

/** The status a reader is shown at `now`: a PENDING session past its deadline is EXPIRED, though the sweep has not recorded it yet. */
export const statusAt = (session: CheckoutSession, now: Date): CheckoutSessionStatus =>
  session.status === 'PENDING' && !isOpen(session, now) ? 'EXPIRED' : session.status;

/**
 * Refuses a payment on a session that is no longer open: CONFLICT with
 * `details.rule` SESSION_COMPLETED_RULE or SESSION_EXPIRED_RULE, which
 * callers branch on (never on the message).
 */
export function assertOpen(session: CheckoutSession, now: Date): void {
  if (session.status === 'COMPLETED') throw new DomainError(ErrorCode.Conflict, 'Checkout session already completed', { rule: SESSION_COMPLETED_RULE });
  if (!isOpen(session, now)) throw new DomainError(ErrorCode.Conflict, 'Checkout session expired', { rule: SESSION_EXPIRED_RULE });
}

export function decide(state: CheckoutSessionState, command: CheckoutSessionCommand): CheckoutSessionEvent[] {
  if (command.kind === 'create') {
    if (state) throw new DomainError(ErrorCode.Conflict, 'Checkout session already exists');
    // The gateway validated the body; the aggregate still never records money that is not whole, positive cents.
    const { amount } = command.session;
    if (!Number.isSafeInteger(amount) || amount < 1 || amount > MAX_AMOUNT_CENTS) {
      throw new DomainError(ErrorCode.ValidationFailed, `Validation failed: amount must be whole cents from 1 to ${MAX_AMOUNT_CENTS}`);
    }
    const created = {
      ...command.session,
      currency: 'CAD' as const,
      created_at: command.now.toISOString(),
      expires_at: new Date(command.now.getTime() + command.ttlSeconds * 1000).toISOString(),
    };
    return [atSchemaVersion1({ type: CheckoutSessionEventType.Created, data: created })];
  }
  if (!state) throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');

  if (command.kind === 'complete') {
    if (state.status === 'COMPLETED') return [];
    assertOpen(state, command.now);
    const completed = { session_id: state.id, completed_at: command.now.toISOString(), transaction_id: command.transactionId };
    return [
      atSchemaVersion1({ type: CheckoutSessionEventType.Completed, data: completed }),
      // The completing payment's status (SPEC §2.3: data.status is the transaction's), and the payment itself.
      merchantEvent(MerchantEventType.CheckoutSessionCompleted, state, 'CONFIRMED', command.transactionId ? { payment_id: command.transactionId } : {}),
    ];
  }

  if (command.kind === 'extend') {
    // A live payer's window is the product's, whatever a caller asks (PRODUCT-RULES §3.1).
    if (state.livemode) throw new DomainError(ErrorCode.Forbidden, 'Only test sessions can be extended');
    assertOpen(state, command.now);
    const expiresAt = new Date(command.now.getTime() + command.ttlSeconds * 1000);
    if (expiresAt.getTime() <= Date.parse(state.expires_at)) return [];
    const extended = { session_id: state.id, expires_at: expiresAt.toISOString(), extended_at: command.now.toISOString() };
    return [atSchemaVersion1({ type: CheckoutSessionEventType.ExpiryExtended, data: extended })];
  }

  if (command.early && state.livemode) throw new DomainError(ErrorCode.Forbidden, 'Only test sessions can be expired early');
  if (state.status !== 'PENDING' || (!command.early && isOpen(state, command.now))) return [];
  const expired = { session_id: state.id, expired_at: command.now.toISOString() };
  return [atSchemaVersion1({ type: CheckoutSessionEventType.Expired, data: expired }), merchantEvent(MerchantEventType.CheckoutSessionExpired, state, 'EXPIRED')];
}

export function evolve(state: CheckoutSessionState, event: CheckoutSessionEvent): CheckoutSessionState {
  switch (event.type) {
    case CheckoutSessionEventType.Created: {
      const { session_id, ...created } = event.data;
      return { ...created, id: session_id, status: 'PENDING', completed_at: null, expired_at: null, transaction_id: null };
    }
    case CheckoutSessionEventType.Completed:
      return state && { ...state, status: 'COMPLETED', completed_at: event.data.completed_at, transaction_id: event.data.transaction_id };
    case CheckoutSessionEventType.Expired:
      return state && { ...state, status: 'EXPIRED', expired_at: event.data.expired_at };
    case CheckoutSessionEventType.ExpiryExtended:
      return state && { ...state, expires_at: event.data.expires_at };
    default:
      return state; // merchant-visible events restate facts; they change nothing
  }
}

export const fold = (events: readonly CheckoutSessionEvent[], initial: CheckoutSessionState = null): CheckoutSessionState =>
  events.reduce(evolve, initial);

/** The session aggregate as the runtime loads it (libs/platform aggregate/). */
export const checkoutSessionAggregate: Aggregate<CheckoutSessionState, CheckoutSessionEvent> = {
  streamId: checkoutSessionStreamId,
  initial: null,
  evolve,
};

/** The merchant-visible twin of a fact, appended with it (PRODUCT-RULES §6 data shape). */
function merchantEvent(type: MerchantEventType, session: CheckoutSession, status: string, extra: { payment_id?: string } = {}): MerchantEvent {
  const data = {
    reference: session.reference,
    amount: session.amount,
    status,
    metadata: session.metadata,
    session_id: session.id,
    ...extra,
  };
  return { type, schema_version: 1, data };
}
