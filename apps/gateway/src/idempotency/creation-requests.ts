import { Injectable } from '@nestjs/common';
import { DomainError, ErrorCode, type IdempotencyToken, type Subject } from '@pp/contracts';
import { isUniqueViolation } from '@pp/platform';
import type { DataSource, EntityManager } from 'typeorm';
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

/**
 * Runs a creation in a transaction that also records its request's Idempotency-Key, so the creation never commits
 * without its key nor the key without the creation. When the transaction failed on a unique index because a concurrent
 * request with the same key made the same thing first (its record, or the e-mail it took, failed this one whole, so
 * nothing was made), this one is refused as its repeat, naming what that one made; any other failure is the caller's
 * to answer.
 */
export async function inRecordedTransaction<T>(
  dataSource: DataSource,
  request: CreationRequest | undefined,
  operation: CreationOperation,
  create: (tx: EntityManager) => Promise<T>,
  createdId: (made: T) => string,
): Promise<T> {
  try {
    return await dataSource.transaction(async (tx) => {
      const made = await create(tx);
      if (request) await new CreationRequestRepository(tx).insert(request, operation, createdId(made));
      return made;
    });
  } catch (error) {
    if (!request || !isUniqueViolation(error)) throw error;
    // The other transaction has committed by now (this one waited on it at the index), so its record can be read.
    await refuseRepeatedCreation(dataSource, request);
    if (!isRecordedAlready(error)) throw error; // another request's e-mail, say: the caller's to answer
    // The record that failed this one was pruned meanwhile: the key is free again, and nothing was made.
    throw new DomainError(ErrorCode.Conflict, 'A concurrent request with this Idempotency-Key was answered first; send this one again');
  }
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
