import type { PayerLocale } from '@pp/kernel';
import { type Html, html } from './html';
import { ASSETS, layout } from './layout.template';
import { messagesFor } from './messages';

export type MessageKind = 'notFound' | 'expired' | 'completed' | 'unavailable';

/**
 * A clear page for a session the payer cannot pay (unknown, expired, already
 * completed) or when checkout cannot answer: never a stack trace. In the
 * embedded frame the page script still reports the state to the parent page.
 * A failure of ours names its request id, for the payer (or, in the frame,
 * the merchant's onError) to quote to support.
 */
export function messagePage(options: {
  kind: MessageKind;
  locale: PayerLocale;
  returnUrl?: string;
  /** In a frame: the parent page's origin, what to tell it, and the session the page shows, when it shows one. */
  embed?: { parentOrigin: string; status: 'COMPLETED' | 'EXPIRED' | 'ERROR'; sessionId?: string } | null;
  requestId?: string;
}): Html {
  const t = messagesFor(options.locale);
  const [title, text] = {
    notFound: [t.notFoundTitle, t.notFoundBody],
    expired: [t.expiredTitle, t.expiredBody],
    completed: [t.completedTitle, t.completedBody],
    unavailable: [t.unavailableTitle, t.unavailableBody],
  }[options.kind];
  const reference = options.requestId === undefined ? undefined : t.contactSupport(options.requestId);
  const body = html`<main class="checkout message" id="checkout"
  data-mode="${options.embed ? 'embed-final' : 'final'}"
  data-parent-origin="${options.embed?.parentOrigin}"
  data-final-status="${options.embed?.status}"
  data-session-id="${options.embed?.sessionId}"
  data-error-text="${reference ? `${title}. ${reference}` : title}">
  <h1>${title}</h1>
  <p>${text}</p>
  ${reference ? html`<p class="request-id">${reference}</p>` : null}
  ${options.returnUrl && !options.embed ? html`<p><a class="button" href="${options.returnUrl}">${t.returnToMerchant}</a></p>` : null}
</main>`;
  return layout({ locale: options.locale, title, body, script: options.embed ? ASSETS.pageScript : undefined, embedded: !!options.embed });
}

/** The frame's first document: no session yet; its script waits for the client secret from the parent page. */
export function embedShell(options: { locale: PayerLocale; parentOrigin: string; publishableKey: string }): Html {
  const t = messagesFor(options.locale);
  const body = html`<main class="checkout message" id="frame"
  data-parent-origin="${options.parentOrigin}"
  data-publishable-key="${options.publishableKey}"
  data-lang="${options.locale === 'fr-CA' ? 'fr' : 'en'}">
  <p role="status" aria-live="polite" id="frame-status">${t.frameLoading}</p>
</main>`;
  return layout({ locale: options.locale, title: t.title, body, script: ASSETS.frameScript, embedded: true });
}
