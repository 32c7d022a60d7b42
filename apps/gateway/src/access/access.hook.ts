import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DomainError, ErrorCode } from '@pp/contracts';
import { CONFIG, deriveKey, keyedDigest } from '@pp/platform';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../gateway.config';
import { INVALID_ADMIN_TOKEN, INVALID_API_KEY } from '../http/api-error';
import { ApiKeyAuthenticator } from '../identity/api-key.authenticator';
import { isClientRoute } from '../rate-limit/client-budgets';
import { countedWithReservation, KeyRateLimiter, setRateLimitHeaders } from '../rate-limit/key-rate-limiter';
import { authorize } from './route-access';

const BEARER = /^Bearer +(\S{1,512}) *$/i;

/**
 * Runs before the body is read: establishes who is calling (API key, admin
 * token or ingest token, as the route declares), refuses a key of a type the
 * route does not take, counts the request against the key's rate limit, then
 * checks the key's scope. Unauthenticated callers never get their body parsed.
 */
@Injectable()
export class AccessHook {
  private readonly adminToken: Buffer;
  private readonly ingestToken: Buffer;
  /** Names the admin token in records (refund actors, idempotency scope) without a plain hash anyone could test guesses against. */
  private readonly adminTokenId: string;

  constructor(
    private readonly keys: ApiKeyAuthenticator,
    private readonly rateLimiter: KeyRateLimiter,
    @Inject(CONFIG) config: GatewayConfig,
  ) {
    this.adminToken = digest(config.ADMIN_TOKEN);
    this.ingestToken = digest(config.INGEST_TOKEN);
    this.adminTokenId = keyedDigest(deriveKey(config.SERVER_SECRET, 'gateway/admin-token-id'), config.ADMIN_TOKEN).slice(0, 16);
  }

  readonly handle = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const access = request.routeOptions.config.access;
    if (!access || access.credential === 'public') return;
    const presented = bearer(request);
    switch (access.credential) {
      case 'admin_token':
        if (!presented || !sameSecret(presented, this.adminToken)) throw new DomainError(ErrorCode.Unauthorized, INVALID_ADMIN_TOKEN);
        request.principal = { kind: 'admin', token_id: this.adminTokenId };
        return;
      case 'ingest_token':
        if (!presented || !sameSecret(presented, this.ingestToken)) throw new DomainError(ErrorCode.Unauthorized, 'Invalid or missing ingest token');
        request.principal = { kind: 'ingest' };
        return;
      case 'api_key': {
        const key = presented ? await this.keys.authenticate(presented, request.ip) : undefined;
        if (!key) throw new DomainError(ErrorCode.Unauthorized, INVALID_API_KEY);
        request.principal = key;
        const refused = authorize(access, key);
        // A key type the route does not take is refused before it is counted: a publishable key is public, and its budget
        // is the one payers' client checkout calls spend (ClientBudgets). The refusal reads no body and costs no Redis call.
        if (refused && !access.keyTypes.includes(key.type)) throw refused;
        // Client-side checkout routes spend the key's budget only once a client secret has opened a session (ClientBudgets).
        // A POST with a small body is counted with its Idempotency-Key reservation, in the same round trip, or as it is
        // answered when refused before that (IdempotencyHooks): the 403 below, a 415, a body that is not JSON ...
        if (!isClientRoute(access)) {
          if (countedWithReservation(request)) request.uncounted = key;
          else setRateLimitHeaders(reply, await this.rateLimiter.consume(key));
        }
        if (refused) throw refused;
        return;
      }
    }
  };
}

function bearer(request: FastifyRequest): string | undefined {
  return presentedCredential(request.headers.authorization);
}

/** The credential of an `Authorization: Bearer …` header. */
export function presentedCredential(authorization: string | undefined): string | undefined {
  return BEARER.exec(authorization ?? '')?.[1];
}

const digest = (secret: string): Buffer => createHash('sha256').update(secret, 'utf8').digest();

/** Compares digests, so the comparison takes the same time whatever the presented token's length or content. */
const sameSecret = (presented: string, expected: Buffer): boolean => timingSafeEqual(digest(presented), expected);
