/**
 * A client secret names its session (`<session id>_secret_<token>`), so the
 * embedded frame can find the session from the secret alone, as Stripe's do.
 * The token is what makes it a secret; the session id is public anyway (it is
 * in the hosted checkout URL).
 */
const CLIENT_SECRET = /^([a-z0-9]{1,64})_secret_([0-9A-Za-z]{20,100})$/;

export const clientSecretFor = (sessionId: string, token: string): string => `${sessionId}_secret_${token}`;

/** The session a well-formed client secret names, or null for anything else. */
export function sessionIdOfClientSecret(secret: string): string | null {
  return CLIENT_SECRET.exec(secret)?.[1] ?? null;
}
