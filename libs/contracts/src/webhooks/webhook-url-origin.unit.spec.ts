import { webhookUrlOrigin } from './webhook-url-origin';

describe('a webhook URL’s origin (webhookUrlOrigin)', () => {
  it.each([
    ['a path, query and fragment', 'https://hooks.shop.example:8443/in/tok_abc?token=sekret#frag', 'https://hooks.shop.example:8443'],
    ['credentials in the URL', 'https://user:pass@shop.example/hook', 'https://shop.example'],
    ['the scheme’s default port', 'https://shop.example:443/hook?key=1', 'https://shop.example'],
    ['what is not a URL', 'not a url /with/tok_abc', ''],
  ])('given %s, then the origin keeps nothing else', (_case, url, origin) => {
    expect(webhookUrlOrigin(url)).toBe(origin);
  });
});
