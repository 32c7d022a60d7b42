import { webhookUrlsFor } from './webhook-url';

describe('what a role sees of a webhook URL (webhookUrlsFor)', () => {
  const views = [{ id: 'wh_1', url: 'https://hooks.shop.example:8443/in/tok_abc?token=sekret#frag' }];

  it.each(['owner', 'administrator', 'developer'] as const)('given the %s, then the URL is answered whole', (role) => {
    expect(webhookUrlsFor(role, views)).toEqual(views);
  });

  it.each(['viewer', 'platform_admin'] as const)('given a %s, then only scheme, host and port are answered', (role) => {
    expect(webhookUrlsFor(role, views)).toEqual([{ id: 'wh_1', url: 'https://hooks.shop.example:8443' }]);
  });
});
