import { readLeadingAmount, readWholeAmount } from './amount-parser';
import { normalizeText } from './text-normalizer';

describe('amount parser', () => {
  it.each([
    ['$1,020.00', 102000],
    ['$200.00 (CAD)', 20000],
    ['$5.25', 525],
    ['$1,200', 120000],
    ['25,00 $', 2500],
    ['1\u00a0234,56\u00a0$', 123456],
    ['1\u202f234,56\u202f$', 123456],
    ['1 234,56 $ (CAD)', 123456],
    ['98, 00 $', 9800],
    ['12 $', 1200],
  ])('reads %j as %i cents', (text, cents) => {
    expect(readWholeAmount(normalizeText(text))).toBe(cents);
  });

  it.each(['$1,20.00', '$12.5', '25,0 $', '$0.00', '1,020 $', '$1,200.00 extra', '$', '1.2.3 $'])('refuses %j', (text) => {
    expect(readWholeAmount(normalizeText(text))).toBe('unparseable');
  });

  it('reads an amount at the end of a sentence and ignores text that is not money', () => {
    expect(readLeadingAmount('$5.25. Thank you').cents).toBe(525);
    expect(readLeadingAmount('Your funds').cents).toBeNull();
  });
});
