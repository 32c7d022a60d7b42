import { attemptedEmail, NOT_AN_EMAIL } from './attempted-email';

describe('the e-mail a failed sign-in is recorded under (attemptedEmail)', () => {
  it.each(['owner@example.com', 'first.last+tag@mail.shop.example', 'Ops@Example.CA', `${'a'.repeat(64)}@${'b'.repeat(185)}.com`])('given %s, then it is kept as typed', (typed) => {
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
  ])('given %s, then only the placeholder is kept', (_what, typed) => {
    expect(attemptedEmail(typed)).toBe(NOT_AN_EMAIL);
  });
});
