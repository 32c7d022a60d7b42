import type { PayerLocale } from '@pp/kernel';
import { type Html, html } from './html';
import { languageOf } from './locale';

export const ASSETS = { css: '/assets/checkout.css', pageScript: '/assets/checkout-page.js', frameScript: '/assets/embed-frame.js' } as const;

/** The document around every payer page: own stylesheet and scripts only (CSP script-src 'self', no inline code). */
export function layout(options: { locale: PayerLocale; title: string; body: Html; script?: string; embedded?: boolean }): Html {
  return html`<!doctype html>
<html lang="${languageOf(options.locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title}</title>
<link rel="stylesheet" href="${ASSETS.css}">
${options.script ? html`<script src="${options.script}" defer></script>` : null}
</head>
<body class="${options.embedded ? 'embedded' : 'hosted'}">
${options.body}
</body>
</html>
`;
}
