import { describe, expect, it } from '@jest/globals';
import { ApiError } from './api';
import { failureText, meansSignedOut } from './api-failure.policy';
import { MESSAGES } from './i18n';

describe('the words shown for a failed call', () => {
  it('given the server’s own words, then shows them', () => {
    expect(failureText(new ApiError(409, 'A refund is already open for this payment'), MESSAGES.en)).toBe('A refund is already open for this payment');
    expect(failureText(new TypeError('Failed to fetch'), MESSAGES.fr)).toBe('Failed to fetch');
  });

  it.each([
    ['en', 502, 'The server answered with status 502'],
    ['fr', 503, 'Le serveur a répondu avec le statut 503'],
  ] as const)('given an answer with no words (a proxy’s HTML page, no status text over HTTP/2), in %s, then names the status', (language, status, shown) => {
    expect(failureText(new ApiError(status, ''), MESSAGES[language])).toBe(shown);
    expect(failureText(new ApiError(status, '  '), MESSAGES[language])).toBe(shown);
  });

  it('given a failure with no words and no status, then says the request failed', () => {
    expect(failureText(new Error(''), MESSAGES.en)).toBe('The request failed.');
    expect(failureText(undefined, MESSAGES.fr)).toBe('La requête a échoué.');
  });
});

describe('a failed read of the session', () => {
  it('means signed out on a 401 only', () => {
    expect(meansSignedOut(new ApiError(401, 'Not signed in'))).toBe(true);
    for (const status of [403, 429, 500, 502, 503]) expect([status, meansSignedOut(new ApiError(status, ''))]).toEqual([status, false]);
    expect(meansSignedOut(new TypeError('Failed to fetch'))).toBe(false);
  });
});
