const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why `apiBase` must not carry a secret key, or undefined when it may. The key
 * travels in every request's Authorization header: over plain http it is
 * readable by anyone on the way, so only this machine's gateway (local
 * development) may be http, unless `allowHttp` says the network is private on
 * purpose. Shared by the client (ClientOptions.allowInsecureHttp) and the CLI
 * (PP_ALLOW_HTTP).
 */
export function keyInClearRefusal(apiBase: string, allowHttp: boolean, override: string): string | undefined {
  let url: URL;
  try {
    url = new URL(apiBase);
  } catch {
    return `The API base ${apiBase} is not a URL (https://…)`;
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && (LOOPBACK_HOSTS.has(url.hostname) || allowHttp))) return undefined;
  return `The API base ${apiBase} would send the secret key in clear text: use https://, or ${override} for a private network`;
}
