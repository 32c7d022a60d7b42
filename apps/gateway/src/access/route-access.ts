import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension } from '@nestjs/swagger';
import { DomainError, ErrorCode } from '@pp/contracts';
import { AddRouteConfig } from '../http/route-config';
import type { KeyType } from '../identity/api-key';
import type { KeyPrincipal } from '../identity/principal';
import type { Scope } from '../identity/scopes';

/**
 * Who may call a route, declared next to the route and carried in Fastify's
 * route config so the access hook can enforce it before the body is read.
 * Every /v1 route must declare one (checked when routes are registered).
 */
export type RouteAccess =
  | { credential: 'api_key'; scope: Scope; keyTypes: readonly KeyType[]; /** Live keys are refused with this 403. */ testKeysOnly?: string }
  | { credential: 'admin_token' }
  | { credential: 'ingest_token' }
  | { credential: 'public' };

export const SECURITY_SCHEMES = { apiKey: 'api_key', adminToken: 'admin_token', ingestToken: 'ingest_token' } as const;

const access = (route: RouteAccess, ...docs: Array<MethodDecorator & ClassDecorator>) =>
  applyDecorators(AddRouteConfig({ access: route }), ...docs);

/**
 * Server-side API: secret and restricted keys holding `scope`. Publishable keys are refused with 403, and with
 * `testKeysOnly` (the test-mode simulator) live keys too, with that message, before the body is read or the
 * Idempotency-Key reserved.
 */
export const SecretKeyRoute = (scope: Scope, testKeysOnly?: string) =>
  access(
    { credential: 'api_key', scope, keyTypes: ['secret', 'restricted'], ...(testKeysOnly ? { testKeysOnly } : {}) },
    ApiBearerAuth(SECURITY_SCHEMES.apiKey),
    ApiExtension('x-required-scope', scope),
  );

/**
 * Client-side checkout routes (embedded checkout in the payer's browser):
 * publishable keys, and the secret keys that can do anything they can.
 */
export const PublishableKeyRoute = (scope: Scope) =>
  access(
    { credential: 'api_key', scope, keyTypes: ['publishable', 'secret', 'restricted'] },
    ApiBearerAuth(SECURITY_SCHEMES.apiKey),
    ApiExtension('x-required-scope', scope),
  );

/** Platform operator routes: Bearer $ADMIN_TOKEN. */
export const AdminRoute = () => access({ credential: 'admin_token' }, ApiBearerAuth(SECURITY_SCHEMES.adminToken));

/** Media type of a raw e-mail (RFC 822), the body of the ingest route. */
export const RFC822 = 'message/rfc822';

/** The mail relay's ingest route: Bearer $INGEST_TOKEN, a raw e-mail as the body. */
export const IngestRoute = () =>
  applyDecorators(
    AddRouteConfig({ access: { credential: 'ingest_token' }, bodyTypes: [RFC822] }),
    ApiBearerAuth(SECURITY_SCHEMES.ingestToken),
  );

/** No credential (the API description itself). */
export const PublicRoute = () => access({ credential: 'public' });

export const PUBLISHABLE_KEY_REFUSED = 'Publishable keys cannot be used on this route; use a secret key';

/**
 * Whether an authenticated key may call a route. Publishable keys on a
 * server-side route get 403 (the key is valid, the route is not for it),
 * like a missing scope.
 */
export function authorize(route: Extract<RouteAccess, { credential: 'api_key' }>, key: KeyPrincipal): DomainError | undefined {
  if (!route.keyTypes.includes(key.type)) {
    return new DomainError(ErrorCode.Forbidden, key.type === 'publishable' ? PUBLISHABLE_KEY_REFUSED : `${key.type} keys cannot be used on this route`);
  }
  if (key.type !== 'publishable' && !key.scopes.includes(route.scope)) {
    return new DomainError(ErrorCode.Forbidden, `Insufficient scope: ${route.scope} required`);
  }
  if (route.testKeysOnly && key.livemode) return new DomainError(ErrorCode.Forbidden, route.testKeysOnly);
  return undefined;
}
