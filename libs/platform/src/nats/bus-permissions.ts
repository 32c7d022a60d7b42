import {
  BUS_IDENTITIES,
  type BusIdentity,
  inboxPrefixOf,
  MIGRATE_IDENTITY,
  OBJECT_STORE_ACCESS,
  STREAM_ACCESS,
  TEST_CLIENT,
} from '@pp/contracts';
import { streamName } from '../jetstream/ensure-stream';
import { REQUEST_REPLY_ACCESS } from './served-subjects';

/**
 * Which PP_NAMESPACE the permissions are for. Production names its one
 * namespace (usually the empty one) and every subject and stream is exact.
 * A server shared by many namespaces (the local one `npm test` runs, where
 * each spec file picks a random namespace) allows any single namespace
 * token in front of a subject (`*.ledger.append.v1`, plus the bare form),
 * and, because a wildcard matches only whole tokens and stream names join
 * the namespace with "_" (`t1a2b_LEDGER_EVENTS`), any stream name in the
 * JetStream API subjects: there, JetStream rights say what an identity may
 * do (create, publish, consume) but not on which stream.
 */
export type NamespaceScope = { kind: 'exact'; namespace: string } | { kind: 'any' };

export interface IdentityPermissions {
  publish: string[];
  /** Subjects refused even where `publish` allows them (NATS applies deny over allow): other services' durable consumers. */
  publishDeny: string[];
  subscribe: string[];
  /** May answer requests it received (publish once to their reply subject). */
  allowResponses: boolean;
}

export type BusPermissions = Record<string, IdentityPermissions>;

const JS_API = '$JS.API';

/** Permissions of every bus identity (and the test harness's when asked), generated from the subject registry. */
export function busPermissions(scope: NamespaceScope, options: { testClient?: boolean } = {}): BusPermissions {
  const forms = subjectForms(scope);
  const stream = (base: string) => (scope.kind === 'exact' ? streamName(scope.namespace, base) : '*');
  const grants = new Map<BusIdentity, { publish: Set<string>; subscribe: Set<string> }>(
    BUS_IDENTITIES.map((identity) => [identity, { publish: new Set<string>(), subscribe: new Set<string>() }]),
  );
  const grant = (identity: BusIdentity, kind: 'publish' | 'subscribe', subjects: string[]) => {
    for (const subject of subjects) grants.get(identity)![kind].add(subject);
  };

  for (const [subject, access] of Object.entries(REQUEST_REPLY_ACCESS)) {
    grant(access.servedBy, 'subscribe', forms(subject));
    for (const caller of access.callers) grant(caller, 'publish', forms(subject));
  }

  /** Only the migrate step creates a stream or changes it: NATS does not hold a stream's subjects or republish to its creator's permissions. */
  const provision = (name: string) => {
    grant(MIGRATE_IDENTITY, 'publish', [`${JS_API}.INFO`, ...['INFO', 'CREATE', 'UPDATE'].map((verb) => `${JS_API}.STREAM.${verb}.${name}`)]);
  };
  for (const spec of STREAM_ACCESS) {
    const name = stream(spec.stream);
    provision(name);
    grant(spec.owner, 'publish', [`${JS_API}.INFO`, `${JS_API}.STREAM.INFO.${name}`]);
    for (const publisher of spec.publishers) grant(publisher, 'publish', spec.subjects.flatMap(forms));
    for (const consumer of spec.consumers) {
      grant(consumer, 'publish', [
        `${JS_API}.INFO`,
        `${JS_API}.STREAM.INFO.${name}`,
        `${JS_API}.CONSUMER.CREATE.${name}.>`,
        `${JS_API}.CONSUMER.DURABLE.CREATE.${name}.*`,
        `${JS_API}.CONSUMER.INFO.${name}.*`,
        `${JS_API}.CONSUMER.MSG.NEXT.${name}.*`,
        `$JS.ACK.${name}.>`,
      ]);
    }
    for (const follower of spec.followers) grant(follower, 'subscribe', spec.followed.flatMap(forms));
  }

  for (const spec of OBJECT_STORE_ACCESS) {
    const bucket = stream(spec.bucket);
    const name = scope.kind === 'exact' ? `OBJ_${bucket}` : '*';
    const open = [`${JS_API}.INFO`, `${JS_API}.STREAM.INFO.${name}`];
    provision(name);
    grant(spec.owner, 'publish', open);
    const lookUp = [`${JS_API}.STREAM.MSG.GET.${name}`, `${JS_API}.DIRECT.GET.${name}`, `${JS_API}.DIRECT.GET.${name}.>`];
    // A put that fails purges the chunks it wrote (or a full bucket would keep them to their expiry), putting an
    // object under an existing name purges the old chunks, and deleting one purges its chunks; each writes metadata.
    // NATS cannot limit a purge to one object's chunks: a writer could drop objects still waiting for a reader,
    // which it could as well have never written.
    const change = [`${JS_API}.STREAM.PURGE.${name}`, `$O.${bucket}.M.>`];
    for (const writer of spec.writers) grant(writer, 'publish', [...open, ...lookUp, ...change, `$O.${bucket}.C.>`]);
    // An object is read chunk by chunk with direct gets (readBlob), never through a consumer: a push consumer's
    // deliver subject is checked against nothing, so a reader who may also write the bucket's metadata could have
    // the server publish what it wrote on any subject.
    for (const reader of spec.readers) grant(reader, 'publish', [...open, ...lookUp, ...change]);
  }

  // A consumer's CREATE right covers any consumer name on its stream (in the shared test server, on any stream),
  // durable ones included: those of each stream's own consumers are refused to everybody else.
  const denied = new Map<BusIdentity, Set<string>>();
  for (const spec of STREAM_ACCESS) {
    const name = stream(spec.stream);
    const guarded = spec.durables.flatMap((durable) => [
      `${JS_API}.CONSUMER.CREATE.${name}.${durable}`,
      `${JS_API}.CONSUMER.CREATE.${name}.${durable}.>`,
      `${JS_API}.CONSUMER.DURABLE.CREATE.${name}.${durable}`,
      `${JS_API}.CONSUMER.DELETE.${name}.${durable}`,
    ]);
    for (const [identity, { publish }] of grants) {
      // (In the shared scope `name` is `*` already: one grant covers every stream.)
      if (!publish.has(`${JS_API}.CONSUMER.CREATE.${name}.>`) || spec.consumers.includes(identity)) continue;
      const refused = denied.get(identity) ?? new Set<string>();
      for (const subject of guarded) refused.add(subject);
      denied.set(identity, refused);
    }
  }

  const permissions: BusPermissions = {};
  for (const [identity, { publish, subscribe }] of grants) {
    const serves = subscribe.size > 0;
    permissions[identity] = {
      publish: [...publish].sort(),
      publishDeny: [...(denied.get(identity) ?? [])].sort(),
      subscribe: [...subscribe, `${inboxPrefixOf(identity)}.>`].sort(),
      allowResponses: serves,
    };
  }
  if (options.testClient) {
    // The harness calls any subject, plays fake responders, publishes to streams and manages them; it still reads only its own replies.
    const subjects = [...Object.keys(REQUEST_REPLY_ACCESS), ...STREAM_ACCESS.flatMap((spec) => spec.subjects)].flatMap(forms);
    permissions[TEST_CLIENT] = {
      publish: [...subjects, `${JS_API}.>`, '$JS.ACK.>', '$JS.FC.>', '$O.>'].sort(),
      publishDeny: [],
      subscribe: [...subjects, `${inboxPrefixOf(TEST_CLIENT)}.>`].sort(),
      allowResponses: true,
    };
  }
  return permissions;
}

/** A subject as the server sees it in the scope: prefixed, or bare and under any namespace token. */
function subjectForms(scope: NamespaceScope): (subject: string) => string[] {
  if (scope.kind === 'any') return (subject) => [subject, `*.${subject}`];
  return (subject) => [scope.namespace ? `${scope.namespace}.${subject}` : subject];
}
