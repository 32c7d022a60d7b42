/** NUL cannot be stored in Postgres text or jsonb. */
const NUL = /\u0000/g;
/** Half of a surrogate pair without its other half (String.prototype.toWellFormed is not in our ES2023 lib): jsonb refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** Any character either of the above could be: a key without one is storable as it is. */
const MAYBE_UNSTORABLE = /[\u0000\ud800-\udfff]/;

/**
 * Text from outside (an e-mail, an endpoint's answer) as Postgres can store it: NUL dropped, a lone surrogate
 * replaced. Left in, one such character fails the whole statement, and with it every row written beside it.
 */
export const storableText = (text: string): string => text.replace(NUL, '').replace(LONE_SURROGATE, '\ufffd');

/** JSON for a jsonb parameter with every string made storable, wherever in the value it sits, keys included. */
export const storableJson = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'string') return storableText(item);
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) return withStorableKeys(item);
    return item;
  });

/**
 * The object as it is when every key is storable (most are: no copy), else a copy with storable keys. Keys that
 * become equal keep the last value, as jsonb keeps the last of duplicate keys.
 */
function withStorableKeys(item: object): object {
  const keys = Object.keys(item);
  if (!keys.some((key) => MAYBE_UNSTORABLE.test(key))) return item;
  return Object.fromEntries(keys.map((key) => [storableText(key), (item as Record<string, unknown>)[key]]));
}
