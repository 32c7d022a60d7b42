import { DomainError, ErrorCode } from '@pp/contracts';
import { checkReturnUrls } from './return-urls.policy';

const refusal = (urls: { success_url: string; cancel_url: string }, livemode: boolean): string | undefined => {
  try {
    checkReturnUrls(urls, livemode);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(ErrorCode.ValidationFailed);
    return (error as DomainError).message;
  }
};

describe('return URL rule', () => {
  const https = { success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' };

  it('given https URLs to named hosts, when checked in either mode, then they pass', () => {
    expect(refusal(https, true)).toBeUndefined();
    expect(refusal(https, false)).toBeUndefined();
  });

  it('given http to this machine, when checked, then test mode takes it and live mode refuses it, naming the field', () => {
    const local = { success_url: 'http://localhost:8080/ok', cancel_url: 'http://127.0.0.1/cancel' };
    expect(refusal(local, false)).toBeUndefined();
    expect(refusal(local, true)).toBe(
      'Validation failed: success_url must be a fully qualified https URL; cancel_url must be a fully qualified https URL',
    );
  });

  it.each([
    ['http to another host in test mode', { ...https, success_url: 'http://shop.example/ok' }, false, /^Validation failed: success_url must be a fully qualified https URL \(http only for localhost in test mode\)$/],
    ['a host without a dot', { ...https, cancel_url: 'https://intranet/ok' }, true, /^Validation failed: cancel_url must be/],
    ['credentials in the URL', { ...https, success_url: 'https://user:pw@shop.example/ok' }, true, /^Validation failed: success_url must be/],
    ['another scheme', { ...https, cancel_url: 'ftp://shop.example/x' }, false, /^Validation failed: cancel_url must be/],
    ['no URL at all', { ...https, success_url: 'shop.example/ok' }, false, /^Validation failed: success_url must be/],
  ])('given %s, when checked, then it is refused with a message naming the field', (_case, urls, livemode, message) => {
    expect(refusal(urls, livemode)).toMatch(message);
  });
});
