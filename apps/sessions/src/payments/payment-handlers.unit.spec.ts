import {
  type CheckoutSessionEvent,
  CheckoutSessionEventType,
  checkoutSessionStreamId,
  MerchantEventType,
  type PaymentEvent,
  PaymentEventType,
  SESSION_COMPLETED_RULE,
  SESSION_EXPIRED_RULE,
  type SimulatePaymentCommand,
  transactionStreamId,
} from '@pp/contracts';
import type { BusClient } from '@pp/platform';
import { checkoutSessionCreated, InMemoryEventStore, inMemoryRuntime } from '@pp/testing';
import { checkoutSessionAggregate } from '../checkout-session/checkout-session.decider';
import { CheckoutSessionLifecycle } from '../checkout-session/checkout-session.lifecycle';
import { MemoDirectory } from '../checkout-session/memo-directory';
import { RecordTransferHandler } from './record-transfer.handler';
import { SimulatePaymentHandler } from './simulate-payment.handler';
import { VerifyPaymentHandler } from './verify-payment.handler';

const T0 = new Date('2026-11-22T01:00:00.000Z');
const DEADLINE = new Date(T0.getTime() + 1800_000);
const SCOPE = { merchant_id: 'mer_1', livemode: false };
const SESSION = checkoutSessionStreamId('cs1');
const PAYMENT = transactionStreamId('txn_1');

const created = checkoutSessionCreated(SCOPE, T0);

const recordedForReview: PaymentEvent = {
  type: PaymentEventType.Recorded,
  schema_version: 1,
  data: {
    payment_id: 'txn_1',
    ...SCOPE,
    session_id: 'cs1',
    session_reference: 'order-1',
    session_metadata: null,
    etransfer_ref: 'PP-7K3M9Q',
    amount: 2000,
    sender_name: 'Jo Payer',
    sender_email: null,
    comment: null,
    status: 'REQUIRES_MANUAL_REVIEW',
    verification_method: 'AUTO_EMAIL',
    review_reasons: ['wrong_amount'],
    source: 'email',
    email_id: 'em_1',
    reference_number: null,
    created_at: T0.toISOString(),
  },
};

const typesOf = (events: readonly { type: string }[]) => events.map((event) => event.type);

/**
 * A runtime whose clock reads `decidedAt` until the first append reaches the store, and the deadline passed from then
 * on: a decision made while the session was open whose append commits after its deadline (held in the ledger's queue).
 */
const commitsAfterTheDeadline = (decidedAt = new Date(DEADLINE.getTime() - 500)) => {
  let now = decidedAt;
  const clock = { now: () => now };
  const runtime = inMemoryRuntime(clock);
  const append = runtime.store.appendStreams.bind(runtime.store);
  jest.spyOn(runtime.store, 'appendStreams').mockImplementation((...args) => {
    now = new Date(DEADLINE.getTime() + 2000);
    return append(...args);
  });
  return { ...runtime, clock };
};

describe('payment handlers over the in-memory event store', () => {
  describe('verify', () => {
    const verify = { ...SCOPE, payment_id: 'txn_1', verified_by: 'usr_admin' };

    it('given a payment in review and its open session, when verified: confirms it and completes the session in one append', async () => {
      const { store, runner } = inMemoryRuntime({ now: () => new Date(T0.getTime() + 60_000) });
      store.given(SESSION, [created], SCOPE).given(PAYMENT, [recordedForReview], SCOPE);
      const appends = jest.spyOn(store, 'appendStreams');
      const view = await new VerifyPaymentHandler(runner).verify(verify);
      expect(appends.mock.calls.map(([streams]) => streams.map((stream) => [stream.stream_id, stream.expected_version]))).toEqual([
        [
          [PAYMENT, 1],
          [SESSION, 1],
        ],
      ]);
      expect(view).toMatchObject({ id: 'txn_1', status: 'CONFIRMED' });
      expect(typesOf(store.events(PAYMENT))).toEqual([PaymentEventType.Recorded, PaymentEventType.Verified, MerchantEventType.PaymentConfirmed]);
      expect(typesOf(store.events(SESSION))).toEqual([CheckoutSessionEventType.Created, CheckoutSessionEventType.Completed, MerchantEventType.CheckoutSessionCompleted]);
      expect(store.events(SESSION)[1].data).toMatchObject({ transaction_id: 'txn_1' });
      expect(store.events(PAYMENT)[1].metadata).toMatchObject({ causation_id: 'verify:txn_1' });
    });

    it('given a replica that remembers a test session past its first deadline and another that extended it, when verified on the first: the session is completed all the same', async () => {
      const { store, runner } = inMemoryRuntime({ now: () => new Date(DEADLINE.getTime() + 1) });
      store.given(SESSION, [created], SCOPE).given(PAYMENT, [recordedForReview], SCOPE);
      const stale = new VerifyPaymentHandler(runner);
      // The first replica has read the session (and remembers it) with its first deadline.
      await runner.aggregates.load(checkoutSessionAggregate, 'cs1');
      const extended: CheckoutSessionEvent = {
        type: CheckoutSessionEventType.ExpiryExtended,
        schema_version: 1,
        data: { session_id: 'cs1', expires_at: new Date(DEADLINE.getTime() + 600_000).toISOString(), extended_at: DEADLINE.toISOString() },
      } as CheckoutSessionEvent;
      await store.appendStreams([{ stream_id: SESSION, expected_version: 1, events: [extended] }], SCOPE);

      await stale.verify(verify);

      expect(typesOf(store.events(SESSION))).toEqual([
        CheckoutSessionEventType.Created,
        CheckoutSessionEventType.ExpiryExtended,
        CheckoutSessionEventType.Completed,
        MerchantEventType.CheckoutSessionCompleted,
      ]);
    });

    it('given a payment in review verified while its session was open, when the append would commit after the deadline: confirms the payment only, the session stays as readers saw it', async () => {
      const { store, runner } = commitsAfterTheDeadline();
      store.given(SESSION, [created], SCOPE).given(PAYMENT, [recordedForReview], SCOPE);
      const view = await new VerifyPaymentHandler(runner).verify(verify);
      expect(view).toMatchObject({ id: 'txn_1', status: 'CONFIRMED' });
      expect(typesOf(store.events(SESSION))).toEqual([CheckoutSessionEventType.Created]);
    });

    it('given a payment in review and a session past its deadline, when verified: confirms the payment only', async () => {
      const { store, runner } = inMemoryRuntime({ now: () => new Date(DEADLINE.getTime() + 1) });
      store.given(SESSION, [created], SCOPE).given(PAYMENT, [recordedForReview], SCOPE);
      await new VerifyPaymentHandler(runner).verify(verify);
      expect(typesOf(store.events(PAYMENT))).toEqual([PaymentEventType.Recorded, PaymentEventType.Verified, MerchantEventType.PaymentConfirmed]);
      expect(typesOf(store.events(SESSION))).toEqual([CheckoutSessionEventType.Created]);
    });
  });

  describe('record a transfer', () => {
    const LIVE = { merchant_id: 'mer_1', livemode: true };
    const genuine = { authenticated: true, authentication_reasons: [], signed_recipient: 'pay@shop.example', recipient_reasons: [], deposit_address: 'pay@shop.example', parse_reasons: [] };
    const transfer = (emailId: string, evidence: typeof genuine | Record<string, unknown> = genuine) => ({
      ...LIVE,
      livemode: true as const,
      email_id: emailId,
      memo: 'PP-7K3M9Q',
      amount: 2500,
      sender_name: 'JO PAYER',
      sender_email: null,
      comment: null,
      reference_number: `C1A${emailId}`,
      evidence: evidence as typeof genuine,
    });
    const replica = (runtime: ReturnType<typeof inMemoryRuntime>) => {
      const memos = new MemoDirectory({} as BusClient);
      memos.remember('PP-7K3M9Q', { session_id: 'cs1', ...LIVE });
      return new RecordTransferHandler(memos, runtime.runner);
    };

    it('given a replica that remembers the session open and another that completed it, when an unauthenticated transfer is recorded on the first: its review says the session was paid', async () => {
      const first = inMemoryRuntime({ now: () => new Date(T0.getTime() + 60_000) });
      first.store.given(SESSION, [checkoutSessionCreated(LIVE, T0)], LIVE);
      await first.runner.aggregates.load(checkoutSessionAggregate, 'cs1');
      await replica(inMemoryRuntime({ now: () => new Date(T0.getTime() + 60_000) }, first.store)).record(transfer('em_paid'));

      const unauthenticated = { ...genuine, authenticated: false, authentication_reasons: ['dkim_missing'], signed_recipient: null };
      const review = await replica(first).record(transfer('em_again', unauthenticated));

      expect(review).toMatchObject({ status: 'REQUIRES_MANUAL_REVIEW', review_reasons: expect.arrayContaining(['session_completed', 'unauthenticated_sender']) });
    });

    it('given a genuine transfer matched while the session was open, when its append would commit after the deadline: the session is not completed, the payment goes to review as late', async () => {
      const runtime = commitsAfterTheDeadline();
      runtime.store.given(SESSION, [checkoutSessionCreated(LIVE, T0)], LIVE);
      const payment = await replica(runtime).record(transfer('em_late'));
      expect(payment).toMatchObject({ status: 'REQUIRES_MANUAL_REVIEW', review_reasons: ['session_expired'] });
      expect(typesOf(runtime.store.events(SESSION))).toEqual([CheckoutSessionEventType.Created]);
    });

    it('given a genuine transfer matched while the session was open, when its append commits before the deadline: the session is completed', async () => {
      const runtime = inMemoryRuntime({ now: () => new Date(DEADLINE.getTime() - 500) });
      runtime.store.given(SESSION, [checkoutSessionCreated(LIVE, T0)], LIVE);
      const payment = await replica(runtime).record(transfer('em_in_time'));
      expect(payment).toMatchObject({ status: 'CONFIRMED' });
      expect(typesOf(runtime.store.events(SESSION))).toEqual([CheckoutSessionEventType.Created, CheckoutSessionEventType.Completed, MerchantEventType.CheckoutSessionCompleted]);
    });
  });

  describe('simulate', () => {
    // A session id is given, so the handler never resolves a reference over the bus.
    const noBus = {} as BusClient;
    const simulate = (key: string, outcome: SimulatePaymentCommand['outcome'] = 'confirmed'): SimulatePaymentCommand => ({
      ...SCOPE,
      session_id: 'cs1',
      outcome,
      idempotency: { key, fingerprint: `fp-${key}` },
    });

    it('given an open session, when a confirmed payment is simulated and retried with its key: one payment, the retry answers it as replayed', async () => {
      const { store, runner } = inMemoryRuntime({ now: () => new Date(T0.getTime() + 60_000) });
      store.given(SESSION, [created], SCOPE);
      const handler = new SimulatePaymentHandler(noBus, runner, { now: () => new Date(T0.getTime() + 60_000) });
      const first = await handler.simulate(simulate('k1'));
      const retry = await handler.simulate(simulate('k1'));
      expect(first).toMatchObject({ replayed: false, transaction: { status: 'CONFIRMED' }, session: { status: 'COMPLETED' } });
      expect(retry).toMatchObject({ replayed: true, transaction: { id: first.transaction.id }, session: { status: 'COMPLETED' } });
      expect(typesOf(store.events(SESSION))).toEqual([CheckoutSessionEventType.Created, CheckoutSessionEventType.Completed, MerchantEventType.CheckoutSessionCompleted]);
    });

    it('given a failed payment simulated before the deadline, when retried with its key after it (the sweep not yet run): the original answered, its session shown EXPIRED as a GET shows it', async () => {
      let now = new Date(T0.getTime() + 60_000);
      const clock = { now: () => now };
      const { store, runner } = inMemoryRuntime(clock);
      store.given(SESSION, [created], SCOPE);
      const handler = new SimulatePaymentHandler(noBus, runner, clock);
      const first = await handler.simulate(simulate('k1', 'failed'));
      now = new Date(DEADLINE.getTime() + 200);
      const retry = await handler.simulate(simulate('k1', 'failed'));
      expect(first).toMatchObject({ replayed: false, session: { status: 'PENDING' } });
      expect(retry).toMatchObject({ replayed: true, transaction: { id: first.transaction.id }, session: { status: 'EXPIRED' } });
    });

    it('given an open session, when a confirmed payment simulated before the deadline would commit after it: refused with the expired rule, no payment recorded', async () => {
      const { store, runner, clock } = commitsAfterTheDeadline();
      store.given(SESSION, [created], SCOPE);
      const refusal = await new SimulatePaymentHandler(noBus, runner, clock).simulate(simulate('k1')).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ message: 'Checkout session expired', details: { rule: SESSION_EXPIRED_RULE } });
      expect(store.streamIds().filter((stream) => stream.startsWith(transactionStreamId('')))).toEqual([]);
      expect(typesOf(store.events(SESSION))).toEqual([CheckoutSessionEventType.Created]);
    });

    it.each(['failed', 'requires_manual_review'] as const)('given an open session, when a %s payment simulated before the deadline would commit after it: refused with the expired rule too, no payment recorded', async (outcome) => {
      const { store, runner, clock } = commitsAfterTheDeadline();
      store.given(SESSION, [created], SCOPE);
      const refusal = await new SimulatePaymentHandler(noBus, runner, clock).simulate(simulate('k1', outcome)).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ message: 'Checkout session expired', details: { rule: SESSION_EXPIRED_RULE } });
      expect(store.streamIds().filter((stream) => stream.startsWith(transactionStreamId('')))).toEqual([]);
    });

    it('given the ledger’s clock 300 ms ahead, when a confirmed payment is simulated 200 ms before the deadline by this clock: refused with the expired rule once the ledger says the deadline passed, not retried into a conflict', async () => {
      const sessionsClock = { now: () => new Date(DEADLINE.getTime() - 200) };
      const ledgerClock = { now: () => new Date(DEADLINE.getTime() + 100) };
      const { store, runner } = inMemoryRuntime(sessionsClock, new InMemoryEventStore(ledgerClock));
      store.given(SESSION, [created], SCOPE);
      const appends = jest.spyOn(store, 'appendStreams');
      const refusal = await new SimulatePaymentHandler(noBus, runner, sessionsClock).simulate(simulate('k1')).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ message: 'Checkout session expired', details: { rule: SESSION_EXPIRED_RULE } });
      expect(appends).toHaveBeenCalledTimes(1);
      expect(store.streamIds().filter((stream) => stream.startsWith(transactionStreamId('')))).toEqual([]);
    });

    it('given a completed session, when another payment is simulated: refused with the completed rule, nothing appended', async () => {
      const { store, runner } = inMemoryRuntime({ now: () => new Date(T0.getTime() + 60_000) });
      store.given(SESSION, [created], SCOPE);
      const handler = new SimulatePaymentHandler(noBus, runner, { now: () => new Date(T0.getTime() + 60_000) });
      await handler.simulate(simulate('k1'));
      const refusal = await handler.simulate(simulate('k2', 'failed')).catch((error: unknown) => error);
      expect(refusal).toMatchObject({ message: 'Checkout session already completed', details: { rule: SESSION_COMPLETED_RULE } });
      expect(store.events(SESSION)).toHaveLength(3);
    });

    it('given an open session, when a confirmed payment before the deadline races an expiry after it: exactly one wins, the loser decides again on its outcome', async () => {
      // Two replicas with their own clocks over one store: one still before the deadline, one after it.
      const { store, runner } = inMemoryRuntime({ now: () => new Date(DEADLINE.getTime() - 500) });
      store.given(SESSION, [created], SCOPE);
      const payer = new SimulatePaymentHandler(noBus, runner, { now: () => new Date(DEADLINE.getTime() - 500) });
      const expirer = new CheckoutSessionLifecycle(inMemoryRuntime({ now: () => new Date(DEADLINE.getTime() + 1) }, store).runner);
      const [paid, expired] = await Promise.allSettled([payer.simulate(simulate('k1')), expirer.expire('cs1')]);

      const terminal = typesOf(store.events(SESSION).slice(1));
      const payments = store.streamIds().filter((stream) => stream.startsWith(transactionStreamId('')));
      if (paid.status === 'fulfilled') {
        expect(terminal).toEqual([CheckoutSessionEventType.Completed, MerchantEventType.CheckoutSessionCompleted]);
        expect(expired).toMatchObject({ status: 'fulfilled', value: { status: 'COMPLETED' } });
        expect(payments).toHaveLength(1);
      } else {
        expect(terminal).toEqual([CheckoutSessionEventType.Expired, MerchantEventType.CheckoutSessionExpired]);
        expect(paid.reason).toMatchObject({ details: { rule: SESSION_EXPIRED_RULE } });
        expect(payments).toEqual([]);
      }
    });

    it.each(['failed', 'requires_manual_review'] as const)(
      'given a replica that last saw the session open and another that completed it, when a %s payment is simulated on the first: refused, no payment recorded',
      async (outcome) => {
        const { store, runner } = inMemoryRuntime({ now: () => new Date(T0.getTime() + 60_000) });
        store.given(SESSION, [created], SCOPE);
        const stale = new SimulatePaymentHandler(noBus, runner, { now: () => new Date(T0.getTime() + 60_000) });
        const other = new SimulatePaymentHandler(noBus, inMemoryRuntime({ now: () => new Date(T0.getTime() + 60_000) }, store).runner, { now: () => new Date(T0.getTime() + 60_000) });
        // The first replica remembers the session open: a simulated review leaves it PENDING at version 1.
        await stale.simulate(simulate('k1', 'requires_manual_review'));
        await other.simulate(simulate('k2', 'confirmed'));
        const payments = () => store.streamIds().filter((stream) => stream.startsWith(transactionStreamId('')));
        const before = payments();

        const refusal = await stale.simulate(simulate('k3', outcome)).catch((error: unknown) => error);

        expect(refusal).toMatchObject({ message: 'Checkout session already completed', details: { rule: SESSION_COMPLETED_RULE } });
        expect(payments()).toEqual(before);
      },
    );
  });
});
