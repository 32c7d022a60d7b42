import type { KeyPrincipal } from '../identity/principal';
import { SECRET_KEY_SCOPES, type Scope } from '../identity/scopes';
import { authorize, PUBLISHABLE_KEY_REFUSED, type RouteAccess } from './route-access';

const key = (type: KeyPrincipal['type'], scopes: readonly Scope[] = type === 'secret' ? SECRET_KEY_SCOPES : []): KeyPrincipal => ({
  kind: 'api_key',
  key_id: 'key_1',
  merchant_id: 'mer_1',
  type,
  livemode: true,
  scopes,
  rate_limit_per_second: null,
});

type KeyRoute = Extract<RouteAccess, { credential: 'api_key' }>;
const secretRoute: KeyRoute = { credential: 'api_key', scope: 'checkout.write', keyTypes: ['secret', 'restricted'] };
const testKeyRoute: KeyRoute = { ...secretRoute, testKeysOnly: 'Simulate payment requires a test key' };
/** The marker client-side checkout routes will carry (PublishableKeyRoute). */
const clientRoute: KeyRoute = { credential: 'api_key', scope: 'checkout.write', keyTypes: ['publishable', 'secret', 'restricted'] };

describe('authorize', () => {
  it.each([
    ['a secret key on a server-side route', secretRoute, key('secret'), undefined],
    ['a restricted key with the scope', secretRoute, key('restricted', ['checkout.write']), undefined],
    ['a restricted key without the scope', secretRoute, key('restricted', ['payments.read']), 'Insufficient scope: checkout.write required'],
    ['a publishable key on a server-side route', secretRoute, key('publishable'), PUBLISHABLE_KEY_REFUSED],
    ['a publishable key on a client-side route', clientRoute, key('publishable'), undefined],
    ['a secret key on a client-side route', clientRoute, key('secret'), undefined],
    ['a restricted key without the scope on a client-side route', clientRoute, key('restricted', ['events.read']), 'Insufficient scope: checkout.write required'],
    ['a live secret key on a test-key route', testKeyRoute, key('secret'), 'Simulate payment requires a test key'],
    ['a test secret key on a test-key route', testKeyRoute, { ...key('secret'), livemode: false }, undefined],
  ] as const)('%s', (_name, route, principal, refusal) => {
    const error = authorize(route, principal);
    if (refusal === undefined) expect(error).toBeUndefined();
    else expect(error).toMatchObject({ code: 'FORBIDDEN', message: refusal });
  });
});
