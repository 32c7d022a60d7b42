/**
 * A fully qualified http(s) URL as the API takes it (success_url, cancel_url,
 * a webhook endpoint's url): a scheme, a non-empty host, then a path, query
 * or fragment that starts with its own delimiter. The host and the rest can
 * never both claim a character, so a rejected value costs one pass: a value
 * of a megabyte ending in a space is answered in microseconds, where the
 * earlier `[^\s/?#]+[^\s]*$` tried every split of it (minutes of the event
 * loop for one request). Which schemes and hosts a mode accepts is each
 * service's policy; this is only the shape.
 */
export const HTTP_URL_PATTERN = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;
