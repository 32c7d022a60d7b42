import { Injectable } from '@nestjs/common';
import type { IdempotencyToken, Subject } from '@pp/contracts';
import type { Queryable } from '../identity/queryable';
import { type CreationOperation, repeatedCreationRefusal } from './creation-request.policy';
import { type CreationRequest, CreationRequestRepository, isRecordedAlready } from './creation-request.repository';
import { IdempotencyKeys } from './idempotency.keys';

/*
 * Exactly-once for the gateway's own creations that answer a secret shown once (docs/ARCHITECTURE.md, Idempotency):
 * the Idempotency-Key is recorded in Postgres in the creation's transaction, so a retry that reaches the handler after
 * the key's Redis record is gone makes nothing a second time. Without a request (the CLI), nothing is recorded.
 */

/** Before the work (hashing a password, say): refuses a request whose Idempotency-Key already made something (repeatedCreationRefusal). */
export async function refuseRepeatedCreation(db: Queryable, request: CreationRequest | undefined): Promise<void> {
  if (!request) return;
  const refusal = repeatedCreationRefusal(await new CreationRequestRepository(db).find(request.scope, request.key), request.keyed_fingerprint);
  if (refusal) throw refusal;
}

/** In the creation's transaction, so the creation never commits without its key nor the key without the creation. */
export async function recordCreation(tx: Queryable, request: CreationRequest | undefined, operation: CreationOperation, createdId: string): Promise<void> {
  if (request) await new CreationRequestRepository(tx).insert(request, operation, createdId);
}

/**
 * After a creation failed: when a concurrent request recorded the same key first (which failed this transaction
 * whole, so nothing was made), this one is refused as its repeat. Any other failure is the caller's to answer.
 */
export async function refuseIfRecordedMeanwhile(db: Queryable, request: CreationRequest | undefined, error: unknown): Promise<void> {
  if (!request || !isRecordedAlready(error)) return;
  await refuseRepeatedCreation(db, request);
  throw error; // the record that failed it is gone already (pruned): nothing to answer but the failure
}

/** The creation record of a bus command's Idempotency-Key (the dashboard's), its subject standing for the route. */
@Injectable()
export class CommandCreationRequests {
  constructor(private readonly keys: IdempotencyKeys) {}

  /** `scope` as the Redis layer would scope the key; none without one (the command came without an Idempotency-Key). */
  of(scope: string, subject: Subject, token: IdempotencyToken | undefined): CreationRequest | undefined {
    if (!token) return undefined;
    return { scope, key: token.key, keyed_fingerprint: this.keys.check(this.keys.entry(scope, token.key), subject, token.fingerprint) };
  }
}
