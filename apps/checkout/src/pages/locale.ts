import type { PayerLocale } from '@pp/kernel';

/**
 * The payer's language: an explicit ?lang= (the page's language switch) wins,
 * then the first of English or French in Accept-Language, then English.
 */
export function negotiateLocale(lang: unknown, acceptLanguage: string | undefined): PayerLocale {
  if (lang === 'fr' || lang === 'en') return lang === 'fr' ? 'fr-CA' : 'en-CA';
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag, q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.q > 0 && /^(en|fr)(-|$)/.test(entry.tag))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0]?.tag.startsWith('fr') ? 'fr-CA' : 'en-CA';
}

export const languageOf = (locale: PayerLocale): 'en' | 'fr' => (locale === 'fr-CA' ? 'fr' : 'en');
