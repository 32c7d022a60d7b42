import {
  CheckoutSessionEventType,
  type CheckoutSessionStatus,
  DomainError,
  ErrorCode,
  type MerchantEventDataV1,
  MerchantEventType,
  type SessionCompletedV1,
  type SessionCreatedV1,
  type SessionExpiredV1,
} from '@pp/contracts';

/*
 * The checkout-session aggregate as a pure decider (SPEC §3.1): `decide`
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
  | { kind: 'expire'; now: Date };

/** An event as the decider emits it; the ledger gives it its id, version and position. */
export interface DecidedEvent {
  type: string;
  schema_version: number;
  data: Record<string, unknown>;
}

export interface EventToFold {
  type: string;
  data: Record<string, unknown>;
}

export function decide(state: CheckoutSessionState, command: CheckoutSessionCommand): DecidedEvent[] {
  if (command.kind === 'create') {
    if (state) throw new DomainError(ErrorCode.Conflict, 'Checkout session already exists');
    const created: SessionCreatedV1 = {
      ...command.session,
      currency: 'CAD',
      created_at: command.now.toISOString(),
      expires_at: new Date(command.now.getTime() + command.ttlSeconds * 1000).toISOString(),
    };
    return [fact(CheckoutSessionEventType.Created, created)];
  }
  if (!state) throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');
  const due = command.now.getTime() >= Date.parse(state.expires_at);

  if (command.kind === 'complete') {
    if (state.status === 'COMPLETED') return [];
    if (state.status === 'EXPIRED' || due) throw new DomainError(ErrorCode.Conflict, 'Checkout session expired');
    const completed: SessionCompletedV1 = {
      session_id: state.id,
      completed_at: command.now.toISOString(),
      transaction_id: command.transactionId,
    };
    return [fact(CheckoutSessionEventType.Completed, completed), merchantEvent(MerchantEventType.CheckoutSessionCompleted, state, 'COMPLETED')];
  }

  if (state.status !== 'PENDING' || !due) return [];
  const expired: SessionExpiredV1 = { session_id: state.id, expired_at: command.now.toISOString() };
  return [fact(CheckoutSessionEventType.Expired, expired), merchantEvent(MerchantEventType.CheckoutSessionExpired, state, 'EXPIRED')];
}

export function evolve(state: CheckoutSessionState, event: EventToFold): CheckoutSessionState {
  switch (event.type) {
    case CheckoutSessionEventType.Created: {
      const { session_id, ...created } = event.data as unknown as SessionCreatedV1;
      return { ...created, id: session_id, status: 'PENDING', completed_at: null, expired_at: null, transaction_id: null };
    }
    case CheckoutSessionEventType.Completed: {
      const completed = event.data as unknown as SessionCompletedV1;
      return state && { ...state, status: 'COMPLETED', completed_at: completed.completed_at, transaction_id: completed.transaction_id };
    }
    case CheckoutSessionEventType.Expired: {
      const expired = event.data as unknown as SessionExpiredV1;
      return state && { ...state, status: 'EXPIRED', expired_at: expired.expired_at };
    }
    default:
      return state; // merchant-visible events restate facts; they change nothing
  }
}

export const fold = (events: readonly EventToFold[], initial: CheckoutSessionState = null): CheckoutSessionState =>
  events.reduce(evolve, initial);

const fact = (type: CheckoutSessionEventType, data: SessionCreatedV1 | SessionCompletedV1 | SessionExpiredV1): DecidedEvent => ({
  type,
  schema_version: 1,
  data: { ...data },
});

/** The merchant-visible twin of a fact, appended with it (SPEC §6 data shape). */
function merchantEvent(type: MerchantEventType, session: CheckoutSession, status: CheckoutSessionStatus): DecidedEvent {
  const data: MerchantEventDataV1 = {
    reference: session.reference,
    amount: session.amount,
    status,
    metadata: session.metadata,
    session_id: session.id,
  };
  return { type, schema_version: 1, data };
}
