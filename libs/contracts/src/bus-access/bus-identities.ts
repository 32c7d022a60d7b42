import { SERVICE_NAMES, type ServiceName } from '../services';

/**
 * Who may connect to the bus (PRODUCT-RULES §D4 "bus identities"): every service,
 * and the mail pipeline, which may only publish raw e-mails to JetStream.
 * Each has its own NATS user; the server's permissions are generated from
 * the subject registry (subject-registry.ts). Names are the NATS user names:
 * do not rename without rotating the credentials.
 */
export const MAIL_PIPELINE = 'mail-pipeline';

/**
 * The migrate step's identity (compose's `migrate`, the Kubernetes migrate Job, `npm start`): the
 * only one that may create JetStream streams and object stores or change their settings. A
 * service that could change its own stream could make it capture other subjects (other
 * identities' replies) or republish into any subject, past its own permissions: NATS does not
 * check a stream's configuration against them.
 */
export const MIGRATE_IDENTITY = 'migrate';

/** A harness identity that exists only in the local server `npm test` runs; never in compose or Kubernetes. */
export const TEST_CLIENT = 'test-client';

export const BUS_IDENTITIES = [...SERVICE_NAMES, MAIL_PIPELINE, MIGRATE_IDENTITY] as const;

export type BusIdentity = ServiceName | typeof MAIL_PIPELINE | typeof MIGRATE_IDENTITY;

/**
 * Prefix of an identity's reply subjects (nats.js `inboxPrefix`). Each
 * identity may subscribe only to its own, so nobody reads another's replies.
 */
export const inboxPrefixOf = (identity: string): string => `_INBOX_${identity}`;
