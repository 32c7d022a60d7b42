import type { MerchantProfileView, PayerSessionView } from '@pp/contracts';
import { formatCad, type PayerLocale } from '@pp/kernel';
import { BANKS } from './banks';
import { type Html, html } from './html';
import { ASSETS, layout } from './layout.template';
import { languageOf } from './locale';
import { messagesFor } from './messages';

export interface CheckoutPageModel {
  session: PayerSessionView;
  merchant: MerchantProfileView;
  locale: PayerLocale;
  now: Date;
  /**
   * Hosted: redirects to success_url once paid; once expired, shows the notice and the cancel link for ten seconds, then goes to cancel_url.
   * Embedded: tells the parent page by postMessage, and stays. Either shows the not-found text once the status poll says the session is gone.
   */
  embed: { parentOrigin: string } | null;
  /** Path of this page, for the language switch. */
  path: string;
}

/**
 * The checkout page of a PENDING session. Everything from merchant input is
 * interpolated through `html` (escaped); the reference and metadata are never
 * shown to the payer. The page script reads its settings from data-*
 * attributes, so there is no inline script.
 */
export function checkoutPage(model: CheckoutPageModel): Html {
  const { session, merchant, locale } = model;
  const t = messagesFor(locale);
  const amount = formatCad(session.amount, locale);
  const base = `/sessions/${session.id}`;
  const recipient = merchant.etransfer_email;
  const body = html`
${session.livemode ? null : html`<p class="test-banner" role="note"><strong>TEST</strong> ${t.testBanner}</p>`}
<main id="checkout" class="checkout"
  data-session-id="${session.id}"
  data-status-url="${base}/status"
  data-expires-at="${session.expires_at}"
  data-server-now="${model.now.toISOString()}"
  data-success-url="${session.success_url}"
  data-cancel-url="${session.cancel_url}"
  data-parent-origin="${model.embed?.parentOrigin}"
  data-mode="${model.embed ? 'embed' : 'hosted'}"
  data-text-copied="${t.copied}"
  data-text-copy-failed="${t.copyFailed}"
  data-text-completed="${model.embed ? t.completedLiveEmbedded : t.completedLive}"
  data-text-expired="${t.expiredLive}"
  data-text-not-found="${t.notFoundBody}">
  <header class="merchant">
    <p class="merchant-name">${t.payTo(merchant.name)}</p>
    <h1>${t.title}</h1>
  </header>

  <section class="summary" aria-label="${t.amount}">
    <p class="amount"><span class="label">${t.amount}</span> <span class="value" id="amount">${amount}</span></p>
    <p class="countdown" role="timer" aria-live="off"><span class="label">${t.timeLeft}</span> <span id="countdown">${countdown(session.expires_at, model.now)}</span></p>
  </section>

  <section class="memo" aria-labelledby="memo-label">
    <h2 id="memo-label">${t.memoLabel}</h2>
    <p class="memo-row"><code id="memo" class="memo-value">${session.memo}</code>
      <button type="button" id="copy-memo" class="button" data-copy="${session.memo}" aria-describedby="memo-label">${t.copy}</button></p>
    <p class="help">${t.memoHelp}</p>
    <p id="copy-status" class="copy-status" role="status" aria-live="polite"></p>
  </section>

  <section class="recipient" aria-labelledby="recipient-label">
    <h2 id="recipient-label">${t.recipient}</h2>
    ${recipient ? html`<p class="recipient-email" id="recipient">${recipient}</p>` : html`<p class="warning">${t.noRecipient}</p>`}
  </section>

  <section class="steps" aria-labelledby="steps-label">
    <h2 id="steps-label">${t.stepsHeading}</h2>
    <ol>
      <li>${t.steps.signIn}</li>
      ${recipient ? html`<li>${t.steps.recipient(recipient)}</li>` : null}
      <li>${t.steps.amount(amount)}</li>
      <li>${t.steps.memo(session.memo)}</li>
      <li>${t.steps.send}</li>
    </ol>
  </section>

  <nav class="banks" aria-labelledby="banks-label">
    <h2 id="banks-label">${t.banksHeading}</h2>
    <p class="help">${t.banksHelp}</p>
    <ul class="bank-list">
      ${BANKS.map(
        (bank) =>
          html`<li><a class="bank" href="${bank.url}" target="_blank" rel="noopener noreferrer">${bank.name}<span class="visually-hidden"> ${t.opensInNewTab}</span></a></li>`,
      )}
    </ul>
  </nav>

  <p id="live-status" class="live-status" role="status" aria-live="polite">${t.waiting}</p>

  <footer class="footer">
    ${model.embed ? null : html`<a class="cancel" id="cancel" href="${session.cancel_url}">${t.cancel(merchant.name)}</a>`}
    ${languageSwitch(locale, model.path, model.embed)}
  </footer>
</main>`;
  return layout({ locale, title: `${t.title} · ${merchant.name}`, body, script: ASSETS.pageScript, embedded: !!model.embed });
}

function languageSwitch(locale: PayerLocale, path: string, embed: { parentOrigin: string } | null): Html {
  const other = languageOf(locale) === 'fr' ? { lang: 'en', label: 'English' } : { lang: 'fr', label: 'Français' };
  const query = new URLSearchParams({ lang: other.lang, ...(embed ? { parent_origin: embed.parentOrigin } : {}) });
  return html`<a class="language" href="${path}?${query.toString()}" lang="${other.lang}" hreflang="${other.lang}">${other.label}</a>`;
}

/** mm:ss left at render time; the page script keeps it ticking. */
export function countdown(expiresAt: string, now: Date): string {
  const seconds = Math.max(0, Math.floor((Date.parse(expiresAt) - now.getTime()) / 1000));
  return `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
}
