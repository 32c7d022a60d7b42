/** A Redis key under the deployment's namespace: ("t42", "gateway", "idem") → "t42:gateway:idem". */
export const redisKey = (namespace: string, ...parts: string[]): string => [namespace, ...parts].filter(Boolean).join(':');
