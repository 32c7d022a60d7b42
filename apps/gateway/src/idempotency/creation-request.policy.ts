import { DomainError, ErrorCode, IDEMPOTENCY_KEY_REUSED } from '@pp/contracts';

/** The gateway's own creations that answer a secret shown once, and so record their Idempotency-Key with them. */
export type CreationOperation = 'api_key' | 'merchant' | 'platform_admin' | 'team_user';

/** What an earlier request with the same Idempotency-Key made, as recorded in its transaction. */
export interface RecordedCreation {
  operation: CreationOperation;
  created_id: string;
  keyed_fingerprint: string;
}

/** Why a repeat gets no answer but this one: the secret is kept only as a hash (or not at all), and what to do instead. */
const ANSWER_LOST: Record<CreationOperation, (id: string) => string> = {
  api_key: (id) => `This Idempotency-Key already issued ${id}; its answer, the only copy of the key, was lost: revoke ${id} and issue another`,
  merchant: (id) =>
    `This Idempotency-Key already created merchant ${id}; its answer, the only copy of its keys and of a generated owner password, was lost: ` +
    `issue ${id} new keys and revoke the ones it was created with, and, if its owner's password was generated, set a new one ` +
    `(POST /v1/admin/merchants/${id}/users/<owner's id>/password; GET /v1/admin/merchants/${id} names the owner)`,
  platform_admin: (id) =>
    `This Idempotency-Key already created platform admin ${id}; its answer was lost: if its password was generated, set a new one ` +
    `(POST /v1/admin/platform_admins/${id}/password)`,
  team_user: (id) => `This Idempotency-Key already added dashboard user ${id}; its answer, the only copy of the user's password, was lost: remove ${id} and add them again`,
};

/**
 * The answer to a creation whose Idempotency-Key a committed creation recorded: a repeat whose first answer was lost
 * with the key's Redis record (a gateway that died before settling it, Redis losing it) or that came over the bus,
 * where no Redis record stands in front. It never creates again: the same request is refused 409 naming what the key
 * made, since its secret cannot be shown again; the key with another request (route or body) is refused 400 as the
 * Redis layer refuses it (PRODUCT-RULES §D3). Undefined: nothing recorded, the creation may go ahead.
 */
export function repeatedCreationRefusal(earlier: RecordedCreation | undefined, keyedFingerprint: string): DomainError | undefined {
  if (!earlier) return undefined;
  if (earlier.keyed_fingerprint !== keyedFingerprint) return new DomainError(ErrorCode.ValidationFailed, IDEMPOTENCY_KEY_REUSED);
  return new DomainError(ErrorCode.Conflict, ANSWER_LOST[earlier.operation](earlier.created_id));
}
