import { useEffect, useState } from 'react';

/**
 * A tiny History API router (no dependency): the path picks the page and the
 * query string holds list filters, so a filtered list can be bookmarked.
 */
export interface Location {
  path: string;
  params: URLSearchParams;
}

const current = (): Location => ({ path: window.location.pathname, params: new URLSearchParams(window.location.search) });

export function navigate(to: string): void {
  window.history.pushState(null, '', to);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function useLocation(): Location {
  const [location, setLocation] = useState(current);
  useEffect(() => {
    const update = () => setLocation(current());
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  return location;
}

/** The current path with some query values changed (undefined removes one); the mode always carries over. */
export function withParams(location: Location, changes: Record<string, string | undefined>, path = location.path): string {
  const params = new URLSearchParams(location.params);
  for (const [key, value] of Object.entries(changes)) {
    if (value) params.set(key, value);
    else params.delete(key);
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}
