/**
 * The words of a 500 (PRODUCT-RULES §7: it names the request id): nothing of
 * the failure itself reaches the client, but support can find it in the logs.
 */
export const internalErrorMessage = (requestId: string): string => `Internal error; contact support with request id ${requestId}`;
