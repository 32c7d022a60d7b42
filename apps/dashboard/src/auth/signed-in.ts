import { createParamDecorator, type ExecutionContext, NotFoundException } from '@nestjs/common';
import type { DashboardPrincipal, MerchantScope } from '@pp/contracts';
import type { SignedInRequest } from './access.guard';
import { requestedLivemode } from './requested-mode';

/** The signed-in user of a route the guard let through. */
export const Principal = createParamDecorator((_data: unknown, context: ExecutionContext): DashboardPrincipal => {
  const signedIn = context.switchToHttp().getRequest<SignedInRequest>().dashboard;
  if (!signedIn) throw new Error('Principal read on a route without a session');
  return signedIn.session.principal;
});

/**
 * The merchant and mode a merchant route acts for: the user's own merchant
 * (never one named by the request) and `?mode=live` or test (the default;
 * requestedLivemode), so another merchant's or mode's ids answer 404 from
 * the services.
 */
export const Scope = createParamDecorator((_data: unknown, context: ExecutionContext): MerchantScope => {
  const request = context.switchToHttp().getRequest<SignedInRequest>();
  const merchantId = request.dashboard?.session.principal.merchant_id;
  if (!merchantId) throw new NotFoundException('Not found');
  return { merchant_id: merchantId, livemode: requestedLivemode(request.query) };
});
