/**
 * A request URL's path, its query left out: what logs and spans may name. A
 * query holds what a caller searched for (a payer's name in `reference=`),
 * which no log keeps.
 */
export const urlPath = (url: string): string => url.split('?')[0];
