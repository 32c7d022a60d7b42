/**
 * `text` with every word that looks like a secret (an API key, pp_…, or a webhook secret, whsec_…) cut to its prefix:
 * for messages that repeat what was typed (an unknown command, a wrong value, a file or URL option), since a key typed
 * in the wrong place (`-api-key pp_live_…`, one dash, or `--api-key-file "$KEY"`) would otherwise be printed back to a
 * terminal or a CI log.
 */
export const redactSecrets = (text: string): string => text.replace(/\b(pp_|whsec_)\S*/g, '$1…(redacted)');
