import { webhookUrlOrigin, webhookUrlsFor } from './webhook-url';

describe('what a role sees of a webhook URL (webhookUrlsFor)', () => {
  const views = [{ id: 'wh_1', url: 'https://hooks.shop.example:8443/in/tok_abc?token=sekret#frag' }];

  it.each(['owner', 'administrator', 'developer'] as const)('given the %s, then the URL is answered whole', (role) => {
    expect(webhookUrlsFor(role, views)).toEqual(views);
  });

  it.each(['viewer', 'platform_admin'] as const)('given a %s, then only scheme, host and port are answered', (role) => {
    expect(webhookUrlsFor(role, views)).toEqual([{ id: 'wh_1', url: 'https://hooks.shop.example:8443' }]);
  });

  it.each([
    ['credentials in the URL', 'https://user:pass@shop.example/hook', 'https://shop.example'],
    ['the scheme’s default port', 'https://shop.example:443/hook?key=1', 'https://shop.example'],
    ['what is not a URL', 'not a url /with/tok_abc', ''],
  ])('given %s, then the origin keeps nothing else', (_case, url, origin) => {
    expect(webhookUrlOrigin(url)).toBe(origin);
  });
});
