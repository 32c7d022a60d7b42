/** NUL cannot be stored in Postgres text or jsonb. */
const NUL = /\u0000/g;
/** Half of a surrogate pair without its other half (String.prototype.toWellFormed is not in our ES2023 lib): jsonb refuses it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text from outside (an e-mail, an endpoint's answer) as Postgres can store it: NUL dropped, a lone surrogate
 * replaced. Left in, one such character fails the whole statement, and with it every row written beside it.
 */
export const storableText = (text: string): string => text.replace(NUL, '').replace(LONE_SURROGATE, '\ufffd');

/** JSON for a jsonb parameter with every string made storable, wherever in the value it sits. */
export const storableJson = (value: unknown): string => JSON.stringify(value, (_key, item: unknown) => (typeof item === 'string' ? storableText(item) : item));
