/**
 * A connection URL fit for a log line or an error message: its password (of
 * any user, or of none, as in redis://:secret@host) replaced by ***. Text
 * that is not a URL loses everything between // and @.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//***@');
  }
}
