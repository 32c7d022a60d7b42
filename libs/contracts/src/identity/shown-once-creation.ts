/**
 * How long an edge (the dashboard) waits for a creation that answers a secret shown once: a merchant with its owner's
 * password and keys (`identity.merchants.create.v1`), an API key (`identity.api-keys.create.v1`), a team user with
 * a generated password (`identity.team.add.v1`). Each hashes a password or keys behind the gateway's other hashing
 * (two at a time, up to 32 in line), so the bus's default (5 s) could give up on one that then commits: the secret
 * would be lost and the action left out of the audit trail (a retry under the same Idempotency-Key is refused as
 * the repeat). The gateway's admin API waits for these as long (`@AnsweredWhenItsChangeEnds`).
 */
export const SHOWN_ONCE_CREATION_TIMEOUT_MS = 30_000;
