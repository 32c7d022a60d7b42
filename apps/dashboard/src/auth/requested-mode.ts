import { BadRequestException } from '@nestjs/common';

/**
 * The mode a merchant route acts in, from `?mode=`: `live`, or test when it is `test` or absent. Anything else (`LIVE`,
 * the parameter twice, a typo) is refused 400 rather than read as test: a request meant for live mode must not run, or
 * be audited, in test mode.
 */
export function requestedLivemode(query: unknown): boolean {
  const mode = typeof query === 'object' && query !== null ? (query as Record<string, unknown>).mode : undefined;
  if (mode === undefined || mode === 'test') return false;
  if (mode === 'live') return true;
  throw new BadRequestException('mode must be live or test');
}
