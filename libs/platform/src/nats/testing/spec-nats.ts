import { randomUUID } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { natsConnectionOptions } from '../nats-connection-options';

/** The project's NATS server under the harness's identity (libs/platform cannot import @pp/testing, which reads the same variable). */
const natsUrl = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** A connection for a libs/platform spec: the harness's identity, no reconnecting (a lost server fails the spec). */
export const openSpecConnection = (name: string): Promise<NatsConnection> =>
  connect({ ...natsConnectionOptions(natsUrl, name), reconnect: false });

/** A subject of the registry under a namespace of its own (the harness's identity may use only registry subjects). */
export const specSubject = (test: string): string => `${test}${randomUUID().replaceAll('-', '')}.health.ledger`;
