import type { WireError } from '@pp/contracts';

/** Every bus reply is one of these, JSON-encoded. */
export type BusReply<T> = { ok: true; data: T } | { ok: false; error: WireError };
