import { attemptedEmail, NOT_AN_EMAIL } from './attempted-email';

describe('the e-mail a failed sign-in is recorded under (attemptedEmail)', () => {
  it.each(['owner@example.com', 'first.last+tag@mail.shop.example', 'Ops@Example.CA', 'élise@café.example', `${'a'.repeat(64)}@${'b'.repeat(185)}.com`])('given %s, then it is kept as typed', (typed) => {
    expect(attemptedEmail(typed)).toBe(typed);
  });

  it.each([
    ['a password', 'correct-horse-battery-staple'],
    ['an empty field', ''],
    ['no dot in the domain', 'owner@localhost'],
    ['two @', 'owner@example.com@example.com'],
    ['a space', 'owner @example.com'],
    ['a tab', 'owner@example.com\tsecret'],
    ['a line break', 'owner@example.com\nsecret'],
    ['an empty local part', '@example.com'],
    ['an empty label', 'owner@example..com'],
    ['a trailing dot', 'owner@example.'],
    ['255 characters', `${'a'.repeat(64)}@${'b'.repeat(186)}.com`],
    ['a right-to-left override, which shows the trail another address', 'moc.elpmaxe\u202e@owner.ca'],
    ['a zero-width space', 'own\u200ber@example.com'],
    ['a zero-width joiner', 'owner@exa\u200dmple.com'],
    ['a byte-order mark', '\ufeffowner@example.com'],
    ['an escape character', 'owner\u001b[2J@example.com'],
    ['a C1 control', 'owner\u0085@example.com'],
  ])('given %s, then only the placeholder is kept', (_what, typed) => {
    expect(attemptedEmail(typed)).toBe(NOT_AN_EMAIL);
  });
});
