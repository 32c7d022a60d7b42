import type { DashboardPrincipal } from '@pp/contracts';

export interface SignedIn {
  user: DashboardPrincipal;
  csrf_token: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = '';

/** What an answer tells of this page's session: it ended (401), or another sign-in in this browser replaced it (the CSRF refusal). */
export type SessionDoubt = 'ended' | 'replaced';

/** The server's words when the token is not its session's (access.guard.ts CSRF_REFUSED): the cookie now belongs to a newer sign-in. */
const CSRF_REFUSED = 'Missing or wrong CSRF token';

let doubt: (what: SessionDoubt) => void = () => undefined;

/** The shell listens here: a page that still shows the user it started with must not act as them once their session is gone. */
export const onSessionDoubt = (listener: (what: SessionDoubt) => void): void => {
  doubt = listener;
};

/** The token the server gave at sign-in; sent back on every state-changing request. */
export const rememberCsrfToken = (token: string): void => {
  csrfToken = token;
};

/**
 * Same-origin JSON calls to the dashboard's /api; errors carry the server's `{ error }` text, or none ('') for an
 * answer without it (a proxy's HTML page): failureText (api-failure.policy.ts) then names the status, in the reader's
 * language. Never the status text, which is English, and empty over HTTP/2.
 */
export async function api<T>(path: string, init: { method?: string; body?: unknown; idempotencyKey?: string } = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET') headers['X-CSRF-Token'] = csrfToken;
  if (init.idempotencyKey !== undefined) headers['Idempotency-Key'] = init.idempotencyKey;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (response.status === 204) return undefined as T;
  const payload: unknown = await response.json().catch(() => ({}));
  if (!response.ok) {
    const message = typeof payload === 'object' && payload !== null && 'error' in payload ? String(payload.error) : '';
    if (response.status === 401) doubt('ended');
    else if (response.status === 403 && message === CSRF_REFUSED) doubt('replaced');
    throw new ApiError(response.status, message);
  }
  return payload as T;
}

/** A query string from the defined values only. */
export function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}
