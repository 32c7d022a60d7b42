import type { MerchantProfileView, PayerSessionView } from '@pp/contracts';
import type { PayerLocale } from '@pp/kernel';
import { checkoutPage } from './checkout-page.template';
import { escapeHtml } from './html';
import { messagePage } from './message-page.template';
import { messagesFor, PAYER_LOCALES } from './messages';

/*
 * A payer who sent the transfer just before expiry sees "expired" while the
 * notice is still on its way (it arrives after, and goes to manual review):
 * told that nothing was taken, they would pay twice. Both the expired page and
 * the live notice of an open page say, in every language, not to send it
 * again but to contact the merchant.
 */
const DO_NOT_PAY_AGAIN: Record<PayerLocale, RegExp[]> = {
  'en-CA': [/If you already sent the e-Transfer, do not send it again/, /contact the merchant/, /matched to your order or refunded/],
  'fr-CA': [/Si vous avez déjà envoyé le Virement Interac, ne l’envoyez pas de nouveau/, /communiquez avec le marchand/, /associé à votre commande ou remboursé/],
};
const SAID_NOTHING_WAS_TAKEN = /No payment was taken|Aucun paiement n’a été pris/;

const session: PayerSessionView = {
  id: 'cs1',
  merchant_id: 'm1',
  livemode: true,
  status: 'PENDING',
  amount: 2500,
  currency: 'CAD',
  memo: 'PP-ABCD',
  success_url: 'https://shop.example/ok',
  cancel_url: 'https://shop.example/cancel',
  expires_at: '2026-01-01T00:30:00.000Z',
};
const merchant = { name: 'Maple Goods', etransfer_email: 'pay@shop.example', frame_ancestors: [] } as unknown as MerchantProfileView;

describe('the expired notice', () => {
  it('is written in every language the pages speak', () => {
    expect(Object.keys(DO_NOT_PAY_AGAIN).sort()).toEqual([...PAYER_LOCALES].sort());
  });

  it.each(PAYER_LOCALES)('given the expired page in %s, then it says not to send the transfer again but to contact the merchant, with the link back', (locale) => {
    const page = messagePage({ kind: 'expired', locale, returnUrl: session.cancel_url }).value;
    for (const words of DO_NOT_PAY_AGAIN[locale]) expect(page).toMatch(words);
    expect(page).not.toMatch(SAID_NOTHING_WAS_TAKEN);
    expect(page).toContain(`href="${session.cancel_url}"`);
  });

  it.each(PAYER_LOCALES)('given an open page in %s, then the notice its script shows on expiry says the same', (locale) => {
    const page = checkoutPage({ session, merchant, locale, now: new Date('2026-01-01T00:00:00.000Z'), embed: null, path: '/sessions/cs1' }).value;
    const notice = /data-text-expired="([^"]*)"/.exec(page)?.[1] ?? '';
    for (const words of DO_NOT_PAY_AGAIN[locale]) expect(notice).toMatch(words);
    expect(notice).not.toMatch(/Taking you back|Retour chez le marchand…/);
  });
});

describe('the live texts of an open page', () => {
  const open = (locale: PayerLocale, embed: { parentOrigin: string } | null) =>
    checkoutPage({ session, merchant, locale, now: new Date('2026-01-01T00:00:00.000Z'), embed, path: '/sessions/cs1' }).value;
  const attribute = (page: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(page)?.[1];

  // The frame never leaves the merchant's page: promising to take the payer back would leave them waiting for nothing.
  it.each(PAYER_LOCALES)('given an embedded page in %s, then its text once paid says the payment was received, not that it takes the payer back', (locale) => {
    const embedded = attribute(open(locale, { parentOrigin: 'https://shop.example' }), 'data-text-completed');
    expect(embedded).toBe(messagesFor(locale).completedLiveEmbedded);
    expect(embedded).not.toMatch(/Taking you back|Retour chez le marchand/);
    expect(attribute(open(locale, null), 'data-text-completed')).toBe(messagesFor(locale).completedLive);
  });

  it.each(PAYER_LOCALES)('given an open page in %s, then the text its script shows once the session is gone is the not-found page’s', (locale) => {
    for (const embed of [null, { parentOrigin: 'https://shop.example' }]) {
      expect(attribute(open(locale, embed), 'data-text-not-found')).toBe(escapeHtml(messagesFor(locale).notFoundBody));
    }
  });
});

describe('the unavailable page', () => {
  it('names the request id for support, escaped as every value of the pages', () => {
    const page = messagePage({ kind: 'unavailable', locale: 'en-CA', requestId: '<b onclick="x">1</b>' }).value;
    expect(page).toContain('<p class="request-id">If it persists, contact support with request id &lt;b onclick=&quot;x&quot;&gt;1&lt;/b&gt;.</p>');
    expect(page).not.toContain('<b onclick');
  });
});
