import { fromOwnOrigin } from './own-origin.policy';

describe('own-origin policy: the page that sent a state-changing request', () => {
  it('given the Origin of this host and port, then it is the dashboard', () => {
    expect(fromOwnOrigin({ origin: 'http://localhost:3002', host: 'localhost:3002' }, false)).toBe(true);
  });

  it('given another host, another port or no Origin, then it is not', () => {
    expect(fromOwnOrigin({ origin: 'http://evil.example', host: 'localhost:3002' }, false)).toBe(false);
    expect(fromOwnOrigin({ origin: 'http://localhost:3003', host: 'localhost:3002' }, false)).toBe(false);
    expect(fromOwnOrigin({ host: 'localhost:3002' }, false)).toBe(false);
    expect(fromOwnOrigin({ origin: 'null', host: 'localhost:3002' }, false)).toBe(false);
    expect(fromOwnOrigin({ origin: 'http://localhost:3002', host: undefined }, false)).toBe(false);
  });

  it('given the browser says the request is cross-site, then it is refused whatever Origin says', () => {
    expect(fromOwnOrigin({ origin: 'http://localhost:3002', host: 'localhost:3002', secFetchSite: 'cross-site' }, false)).toBe(false);
    expect(fromOwnOrigin({ origin: 'http://localhost:3002', host: 'localhost:3002', secFetchSite: 'same-site' }, false)).toBe(false);
    expect(fromOwnOrigin({ origin: 'http://localhost:3002', host: 'localhost:3002', secFetchSite: 'same-origin' }, false)).toBe(true);
  });

  it('given the Secure cookie, when a plain-http page names the same host (DNS rebinding), then it is refused', () => {
    expect(fromOwnOrigin({ origin: 'http://pay.example.com', host: 'pay.example.com' }, true)).toBe(false);
    expect(fromOwnOrigin({ origin: 'https://pay.example.com', host: 'pay.example.com' }, true)).toBe(true);
  });

  it('given the Secure cookie, when the page is served on a loopback name over http, then it is the dashboard', () => {
    expect(fromOwnOrigin({ origin: 'http://localhost:3002', host: 'localhost:3002' }, true)).toBe(true);
    expect(fromOwnOrigin({ origin: 'http://127.0.0.1:3002', host: '127.0.0.1:3002' }, true)).toBe(true);
    expect(fromOwnOrigin({ origin: 'http://[::1]:3002', host: '[::1]:3002' }, true)).toBe(true);
    expect(fromOwnOrigin({ origin: 'http://localhost.evil.example:3002', host: 'localhost.evil.example:3002' }, true)).toBe(false);
  });
});
