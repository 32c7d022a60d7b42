/** Money is integer cents of CAD, never a float. */
export type Cents = number;

export const MAX_CENTS = 99_999_999_99; // 99,999,999.99 CAD: far above any e-Transfer limit

export function isCents(value: unknown): value is Cents {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= MAX_CENTS;
}

export type PayerLocale = 'en-CA' | 'fr-CA';

/** "$1,200.00" in English, "1 200,00 $" in French (with the no-break spaces the locale uses). */
export function formatCad(cents: Cents, locale: PayerLocale = 'en-CA'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'CAD', currencyDisplay: 'narrowSymbol' }).format(
    cents / 100,
  );
}
