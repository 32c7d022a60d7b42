import { CheckoutClient } from '../client';
import { keyInClearRefusal, withoutUserinfo } from './key-in-clear';

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

  describe('given a user name or password in the URL', () => {
    it('then it is refused with a message that does not repeat them, before any request', () => {
      const fetch = jest.spyOn(globalThis, 'fetch');
      expect(() => new CheckoutClient({ apiKey: 'pp_live_x', apiBase: 'https://u:secret@h.example' })).toThrow(/^The API base https:\/\/…@h\.example holds a user name or password/);
      expect(() => new CheckoutClient({ apiKey: 'pp_live_x', apiBase: 'https://u:secret@h.example' })).not.toThrow(/secret|u:/);
      expect(keyInClearRefusal('http://u:secret@localhost:3000', false, 'x')).toMatch(/holds a user name or password/);
      expect(keyInClearRefusal('https://:secret@h.example', false, 'x')).not.toContain('secret');
      // Not a URL (the password's slash ends the host): repeated all the same, without it.
      expect(keyInClearRefusal('https://u:se/cret@h.example', false, 'x')).toBe('The API base https://…@h.example is not a URL (https://…)');
      expect(fetch).not.toHaveBeenCalled();
      fetch.mockRestore();
    });
  });

  describe('given the client', () => {
    it('then its constructor refuses a base that would expose the key, before any request', () => {
      expect(() => new CheckoutClient({ apiKey: 'pp_live_x', apiBase: 'http://gateway.example.com' })).toThrow(/in clear text/);
      expect(new CheckoutClient({ apiKey: 'pp_live_x', apiBase: 'http://gateway.internal', allowInsecureHttp: true }).apiBase).toBe('http://gateway.internal');
    });

    it.each([
      ['live', 'pp_live_AbCdEf0123456789'],
      ['restricted', 'pp_rk_AbCdEf0123456789'],
    ])('given a %s key and no apiBase, when the client is built, then it refuses with a TypeError that does not repeat the key, rather than send it to http://localhost:3000', (_kind, apiKey) => {
      const fetch = jest.spyOn(globalThis, 'fetch');
      expect(() => new CheckoutClient({ apiKey })).toThrow(TypeError);
      expect(() => new CheckoutClient({ apiKey })).toThrow(/^apiBase is required with a live or restricted key/);
      expect(() => new CheckoutClient({ apiKey })).not.toThrow(/AbCdEf/);
      expect(new CheckoutClient({ apiKey, apiBase: 'https://gateway.example' }).apiBase).toBe('https://gateway.example');
      expect(fetch).not.toHaveBeenCalled();
      fetch.mockRestore();
    });

    it('given a test key and no apiBase, when the client is built, then it talks to the gateway on this machine', () => {
      expect(new CheckoutClient({ apiKey: 'pp_live_test_x' }).apiBase).toBe('http://localhost:3000');
    });

    it('given an empty apiBase (an environment variable set to nothing), when the client is built, then it is taken as none', () => {
      expect(new CheckoutClient({ apiKey: 'pp_live_test_x', apiBase: '' }).apiBase).toBe('http://localhost:3000');
      expect(() => new CheckoutClient({ apiKey: 'pp_live_AbCdEf0123456789', apiBase: '' })).toThrow(/^apiBase is required with a live or restricted key/);
    });

    it('given a publishable key, when the client is built, then it is refused as one, with or without apiBase', () => {
      for (const apiKey of ['pp_pub_test_AbCdEf0123456789', 'pp_pub_AbCdEf0123456789']) {
        expect(() => new CheckoutClient({ apiKey })).toThrow(/^apiKey is a publishable key/);
        expect(() => new CheckoutClient({ apiKey, apiBase: 'https://gateway.example' })).toThrow(/^apiKey is a publishable key/);
      }
    });
  });
});

describe('withoutUserinfo', () => {
  it.each([
    ['https://u:secret@gw.example/v1', 'https://…@gw.example/v1'],
    ['http://u:p@ss/w@rd@127.0.0.1:9/hooks', 'http://…@127.0.0.1:9/hooks'],
    ['https://gw.example/v1', 'https://gw.example/v1'],
    ['no url at all', 'no url at all'],
    ['mail@example.com', 'mail@example.com'],
    ['//@host', '//…@host'],
  ])('given %s, then it shows %s', (text, shown) => {
    expect(withoutUserinfo(text)).toBe(shown);
  });

  it('given a header of slashes with an @ at its end, then everything between the first // and the @ is cut', () => {
    expect(withoutUserinfo(`${'//'.repeat(20_000)}@x`)).toBe('//…@x');
  });
});
