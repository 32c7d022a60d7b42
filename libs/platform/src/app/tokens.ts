/** Injection tokens provided by PlatformModule to every service. */
export const CONFIG = Symbol('CONFIG');
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
export const REDIS = Symbol('REDIS');
