import { SERVICE_NAMES, type ServiceName } from '../services';

/**
 * Who may connect to the bus (PRODUCT-RULES §D4 "bus identities"): every service,
 * and the mail pipeline, which may only publish raw e-mails to JetStream.
 * Each has its own NATS user; the server's permissions are generated from
 * the subject registry (subject-registry.ts). Names are the NATS user names:
 * do not rename without rotating the credentials.
 */
export const MAIL_PIPELINE = 'mail-pipeline';

/** A harness identity that exists only in the local server `npm test` runs; never in compose or Kubernetes. */
export const TEST_CLIENT = 'test-client';

export const BUS_IDENTITIES = [...SERVICE_NAMES, MAIL_PIPELINE] as const;

export type BusIdentity = ServiceName | typeof MAIL_PIPELINE;

/**
 * Prefix of an identity's reply subjects (nats.js `inboxPrefix`). Each
 * identity may subscribe only to its own, so nobody reads another's replies.
 */
export const inboxPrefixOf = (identity: string): string => `_INBOX_${identity}`;
