import { redactSecrets } from '../redact-secrets';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why `apiBase` must not carry a secret key, or undefined when it may. The key
 * travels in every request's Authorization header: over plain http it is
 * readable by anyone on the way, so only this machine's gateway (local
 * development) may be http, unless `allowHttp` says the network is private on
 * purpose. A user name or password in it is refused too: fetch throws on
 * such a URL quoting it whole, so every attempt would fail as a network error,
 * be retried, and print the password. Shared by the client
 * (ClientOptions.allowInsecureHttp) and the CLI (PP_ALLOW_HTTP).
 */
export function keyInClearRefusal(apiBase: string, allowHttp: boolean, override: string): string | undefined {
  let url: URL;
  try {
    url = new URL(apiBase);
  } catch {
    return `The API base ${redactSecrets(withoutUserinfo(apiBase))} is not a URL (https://…)`;
  }
  if (url.username || url.password) return `The API base ${withoutUserinfo(apiBase)} holds a user name or password: fetch refuses such a URL, and the API key is the credential`;
  if (url.protocol === 'https:' || (url.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || allowHttp))) return undefined;
  return `The API base ${apiBase} would send the secret key in clear text: use https://, or ${override} for a private network`;
}

/**
 * `text` with everything from `//` to the last `@` cut out, for refusals that repeat a URL: a password in it must
 * not reach a terminal or a log. Cut by text, since a string that is not a URL has no parts to find it by (a password
 * holding a `/` is why it is not one); a path or query with an `@` is cut too, which a refusal can spare. Found by
 * index, not by a pattern: `//.*@` tried from every `//` is quadratic on a header of slashes (a redirect's Location).
 */
export const withoutUserinfo = (text: string): string => {
  const start = text.indexOf('//');
  const at = text.lastIndexOf('@');
  return start >= 0 && at > start + 1 ? `${text.slice(0, start)}//…@${text.slice(at + 1)}` : text;
};
