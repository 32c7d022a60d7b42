import { CheckoutPreviewEventType, checkoutPreviewStreamId, checkoutSessionStreamId } from '@pp/contracts';
import { checkoutSessionCreated, inMemoryRuntime } from '@pp/testing';
import type { SessionsConfig } from '../sessions.config';
import { OpenCheckoutPreviewHandler } from './open-checkout-preview.handler';

const T0 = new Date('2026-12-07T12:00:00.000Z');
const MERCHANT = 'mer_preview';
const SCOPE = { merchant_id: MERCHANT, livemode: false };
const PREVIEW = checkoutPreviewStreamId(MERCHANT);
const chosen = (sessionId: string) => ({
  type: CheckoutPreviewEventType.SessionChosen,
  schema_version: 1,
  data: { merchant_id: MERCHANT, session_id: sessionId, chosen_at: T0.toISOString() },
});

/*
 * The preview's own stream is never closed: it gains an event each time a new session becomes the preview one. Only
 * its last event names the current session, so only that is read, however long the stream has grown.
 */
describe('opening the dashboard’s preview checkout over the in-memory event store', () => {
  it('given a preview stream of 3,000 renewals whose last names an open session, when opened, then that session is extended, its stream read for its last event alone', async () => {
    const { store, runner } = inMemoryRuntime({ now: () => new Date(T0.getTime() + 600_000) });
    store.given(PREVIEW, Array.from({ length: 3000 }, (_, i) => chosen(`cs_old${i}`)).concat(chosen('cs_current')), SCOPE);
    store.given(checkoutSessionStreamId('cs_current'), [checkoutSessionCreated(SCOPE, T0, { sessionId: 'cs_current' })], SCOPE);
    const reads = jest.spyOn(store, 'readStream');
    const handler = new OpenCheckoutPreviewHandler(runner, { CHECKOUT_URL_BASE: 'http://localhost:3001', SESSION_TTL_SECONDS: 1800 } as SessionsConfig);

    const opened = await handler.open({ merchant_id: MERCHANT, return_url: 'http://localhost:3002/developers' });

    expect(opened).toMatchObject({ outcome: 'extended', session: { id: 'cs_current' } });
    expect(reads).toHaveBeenCalledWith(PREVIEW, 1);
    expect(store.events(PREVIEW)).toHaveLength(3001);
  });

  it('given the last-named session is completed or gone past its deadline, when opened, then a new session becomes the preview one, appended after the 3,000', async () => {
    const { store, runner } = inMemoryRuntime({ now: () => new Date(T0.getTime() + 3_600_000) });
    store.given(PREVIEW, Array.from({ length: 3000 }, (_, i) => chosen(`cs_old${i}`)).concat(chosen('cs_current')), SCOPE);
    store.given(checkoutSessionStreamId('cs_current'), [checkoutSessionCreated(SCOPE, T0, { sessionId: 'cs_current' })], SCOPE);
    const handler = new OpenCheckoutPreviewHandler(runner, { CHECKOUT_URL_BASE: 'http://localhost:3001', SESSION_TTL_SECONDS: 1800 } as SessionsConfig);

    const opened = await handler.open({ merchant_id: MERCHANT, return_url: 'http://localhost:3002/developers' });

    expect(opened.outcome).toBe('created');
    expect(opened.session.id).not.toBe('cs_current');
    expect(store.events(PREVIEW).at(-1)?.data).toMatchObject({ session_id: opened.session.id });
    expect(store.events(PREVIEW)).toHaveLength(3002);
  });

  it('given the preview session open when decided, when its extension would commit after its deadline, then it is decided again and a new session becomes the preview one, the old one never extended', async () => {
    const deadline = T0.getTime() + 1_800_000;
    let now = new Date(deadline - 500);
    const { store, runner } = inMemoryRuntime({ now: () => now });
    store.given(PREVIEW, [chosen('cs_current')], SCOPE);
    store.given(checkoutSessionStreamId('cs_current'), [checkoutSessionCreated(SCOPE, T0, { sessionId: 'cs_current' })], SCOPE);
    const append = store.appendStreams.bind(store);
    // The ledger takes the first append after the deadline (its queue was slow); the next round is decided then.
    jest.spyOn(store, 'appendStreams').mockImplementation((...args) => {
      now = new Date(deadline + 2000);
      return append(...args);
    });
    const handler = new OpenCheckoutPreviewHandler(runner, { CHECKOUT_URL_BASE: 'http://localhost:3001', SESSION_TTL_SECONDS: 1800 } as SessionsConfig);

    const opened = await handler.open({ merchant_id: MERCHANT, return_url: 'http://localhost:3002/developers' });

    expect(opened.outcome).toBe('created');
    expect(opened.session.id).not.toBe('cs_current');
    expect(store.events(checkoutSessionStreamId('cs_current'))).toHaveLength(1);
  });
});
