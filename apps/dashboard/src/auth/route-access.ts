import { SetMetadata } from '@nestjs/common';
import type { DashboardPermission } from './dashboard-permissions.policy';

export const ROUTE_ACCESS = 'dashboard:route-access';

/** Who may call a route: anyone (sign-in only), any signed-in user, or users whose role has a permission. */
export type RouteAccess = { kind: 'signed-out' } | { kind: 'signed-in' } | { kind: 'permission'; permission: DashboardPermission };

/** No session needed (sign-in itself); the Origin check still applies to it. */
export const SignedOutRoute = () => SetMetadata(ROUTE_ACCESS, { kind: 'signed-out' } satisfies RouteAccess);
export const SignedInRoute = () => SetMetadata(ROUTE_ACCESS, { kind: 'signed-in' } satisfies RouteAccess);
export const Permit = (permission: DashboardPermission) => SetMetadata(ROUTE_ACCESS, { kind: 'permission', permission } satisfies RouteAccess);
