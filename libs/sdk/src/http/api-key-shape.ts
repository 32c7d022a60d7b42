/**
 * Keys are `pp_`, a mode (`live_test_`, `live_`, `rk_`…) and a base62 random
 * part. A key copied with a line break or a NUL in it would make fetch refuse
 * the Authorization header with an error quoting the key, which callers log
 * and the CLI prints; so the shape is checked first, and the refusal never
 * repeats the value.
 */
const API_KEY_SHAPE = /^pp_[A-Za-z0-9_]+$/;

export const isApiKeyShaped = (value: string): boolean => API_KEY_SHAPE.test(value);

/**
 * A test-mode secret key (pp_live_test_…): it moves no money. Live secret
 * keys (pp_live_…) and restricted keys (pp_rk_…, live only) do.
 */
export const isTestKey = (apiKey: string): boolean => apiKey.startsWith('pp_live_test_');
