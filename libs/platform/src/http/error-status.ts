import { ErrorCode } from '@pp/contracts';

/** The HTTP status of each domain error code, the same at every HTTP edge (gateway, checkout, dashboard). */
export const HTTP_STATUS_OF: Readonly<Record<ErrorCode, number>> = {
  [ErrorCode.ValidationFailed]: 400,
  [ErrorCode.Unauthorized]: 401,
  [ErrorCode.Forbidden]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.ConcurrencyConflict]: 409,
  [ErrorCode.ServiceUnavailable]: 503,
  [ErrorCode.Internal]: 500,
};
