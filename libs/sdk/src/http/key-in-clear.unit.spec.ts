import { CheckoutClient } from '../client';
import { keyInClearRefusal } from './key-in-clear';

describe('where the secret key may travel', () => {
  describe('given https or http to this machine', () => {
    it('then the base is accepted', () => {
      for (const base of ['https://api.example.com', 'http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
        expect(keyInClearRefusal(base, false, 'x')).toBeUndefined();
      }
    });
  });

  describe('given plain http to another machine', () => {
    it('then it is refused unless allowed on purpose', () => {
      expect(keyInClearRefusal('http://api.example.com', false, 'pass allowInsecureHttp: true')).toMatch(/in clear text: use https:\/\/, or pass allowInsecureHttp: true/);
      expect(keyInClearRefusal('http://10.0.0.5:3000', true, 'x')).toBeUndefined();
    });
  });

  describe('given something that is not a URL, or another scheme', () => {
    it('then it is refused', () => {
      expect(keyInClearRefusal('api.example.com', true, 'x')).toMatch(/is not a URL/);
      expect(keyInClearRefusal('ftp://api.example.com', true, 'x')).toMatch(/in clear text/);
    });
  });

  describe('given the client', () => {
    it('then its constructor refuses a base that would expose the key, before any request', () => {
      expect(() => new CheckoutClient({ apiKey: 'pp_live_x', apiBase: 'http://gateway.example.com' })).toThrow(/in clear text/);
      expect(new CheckoutClient({ apiKey: 'pp_live_x', apiBase: 'http://gateway.internal', allowInsecureHttp: true }).apiBase).toBe('http://gateway.internal');
    });
  });
});
