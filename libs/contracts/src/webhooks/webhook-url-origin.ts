/**
 * A webhook URL's origin (scheme://host[:port]), what callers that do not
 * manage endpoints see of it (a dashboard viewer, an API key without
 * webhooks.write): its path and query are the merchant's and may carry a
 * token. What cannot be read as a URL shows as nothing rather than whole.
 */
export function webhookUrlOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}

/** `views` with each URL cut to its origin (webhookUrlOrigin), for a caller that may not see them whole. */
export function withUrlOrigins<T extends { url: string }>(views: readonly T[]): T[] {
  return views.map((view) => ({ ...view, url: webhookUrlOrigin(view.url) }));
}
