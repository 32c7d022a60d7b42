import { negotiateLocale } from './locale';

describe('negotiateLocale', () => {
  it.each([
    [undefined, undefined, 'en-CA'],
    [undefined, 'fr-CA,fr;q=0.9,en;q=0.8', 'fr-CA'],
    [undefined, 'de-DE, en;q=0.5, fr;q=0.7', 'fr-CA'],
    [undefined, 'de-DE', 'en-CA'],
    [undefined, 'fr;q=0, en', 'en-CA'],
    ['en', 'fr-CA', 'en-CA'],
    ['fr', 'en-US', 'fr-CA'],
    ['xx', 'fr', 'fr-CA'],
  ])('lang=%s, Accept-Language %s → %s', (lang, accept, expected) => {
    expect(negotiateLocale(lang, accept)).toBe(expected);
  });
});
