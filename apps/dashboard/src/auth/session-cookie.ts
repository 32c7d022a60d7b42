import type { FastifyReply, FastifyRequest } from 'fastify';

/** `__Host-` pins the cookie to this exact origin and path; browsers accept it only with Secure, so plain-http dev uses a plain name. */
export const cookieName = (secure: boolean): string => (secure ? '__Host-pp_dashboard' : 'pp_dashboard');

export function readSessionCookie(request: FastifyRequest, secure: boolean): string | undefined {
  const name = cookieName(secure);
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=') || undefined;
  }
  return undefined;
}

/** HttpOnly (no script reads it), SameSite=Lax (no cross-site POST carries it), no Max-Age: the server decides when it ends. */
export function setSessionCookie(reply: FastifyReply, secure: boolean, id: string): void {
  reply.header('Set-Cookie', `${cookieName(secure)}=${id}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`);
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.header('Set-Cookie', `${cookieName(secure)}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`);
}
