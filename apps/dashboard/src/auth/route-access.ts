import { SetMetadata } from '@nestjs/common';
import type { DashboardPermission } from './dashboard-permissions.policy';

export const ROUTE_ACCESS = 'dashboard:route-access';

/**
 * Who may call a route: anyone (sign-in only), any signed-in user, or users whose role has a permission.
 * `ownSessionOnly`: the route acts on nothing but the caller's own session (sign-out), so it needs no
 * principal confirmed by the gateway (PrincipalRecheck) and works while the gateway is down.
 */
export type RouteAccess = { kind: 'signed-out' } | { kind: 'signed-in'; ownSessionOnly?: true } | { kind: 'permission'; permission: DashboardPermission };

/** No session needed (sign-in itself); the Origin check still applies to it. */
export const SignedOutRoute = () => SetMetadata(ROUTE_ACCESS, { kind: 'signed-out' } satisfies RouteAccess);
export const SignedInRoute = () => SetMetadata(ROUTE_ACCESS, { kind: 'signed-in' } satisfies RouteAccess);
/** Sign-out: a signed-in route on the caller's own session alone. */
export const OwnSessionRoute = () => SetMetadata(ROUTE_ACCESS, { kind: 'signed-in', ownSessionOnly: true } satisfies RouteAccess);
export const Permit = (permission: DashboardPermission) => SetMetadata(ROUTE_ACCESS, { kind: 'permission', permission } satisfies RouteAccess);
