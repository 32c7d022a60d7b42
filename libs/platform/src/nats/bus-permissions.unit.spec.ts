import { BUS_IDENTITIES, HEALTH_ACCESS, MAIL_PIPELINE, MIGRATE_IDENTITY, STREAM_ACCESS, SUBJECT_REGISTRY, TEST_CLIENT } from '@pp/contracts';
import { busPermissions } from './bus-permissions';

const production = busPermissions({ kind: 'exact', namespace: '' });
const publishers = (permissions: ReturnType<typeof busPermissions>, subject: string) =>
  Object.entries(permissions)
    .filter(([, p]) => p.publish.includes(subject))
    .map(([identity]) => identity);

describe('bus permissions generated from the subject registry', () => {
  describe('given the production scope (one exact namespace)', () => {
    it('then only the ingest may send payments.record-transfer.v1; only sessions appends to the ledger freely, refunds only through its limited subject', () => {
      expect(publishers(production, 'payments.record-transfer.v1')).toEqual(['ingest']);
      expect(publishers(production, 'ledger.append.v1')).toEqual(['sessions']);
      expect(publishers(production, 'ledger.append-streams.v1')).toEqual(['sessions']);
      expect(publishers(production, 'ledger.append-refund-streams.v1')).toEqual(['refunds']);
    });

    it('then the gateway may call the API’s subjects but never append, record transfers or verify payments', () => {
      const gateway = production.gateway.publish;
      expect(gateway).toEqual(expect.arrayContaining(['sessions.create.v1', 'refunds.approve.v1', 'payments.simulate.v1']));
      for (const subject of ['ledger.append.v1', 'ledger.append-streams.v1', 'ledger.append-refund-streams.v1', 'payments.record-transfer.v1', 'payments.verify.v1']) {
        expect(gateway).not.toContain(subject);
      }
    });

    it('then the checkout app reaches only its payer-facing subjects, and answers its health', () => {
      expect(production.checkout.publish).toEqual(['checkout-page.session.v1', 'identity.merchant-profile.v1']);
      expect(production.checkout.subscribe).toEqual(['_INBOX_checkout.>', 'health.checkout']);
    });

    it('then the mail pipeline may only publish raw e-mails and read its own replies', () => {
      expect(production[MAIL_PIPELINE]).toEqual({ publish: ['ingest.email.raw'], publishDeny: [], subscribe: ['_INBOX_mail-pipeline.>'], allowResponses: false });
    });

    it('then every identity reads only its own inbox, and nobody subscribes to a wildcard of everything', () => {
      for (const identity of BUS_IDENTITIES) {
        const { subscribe, publish } = production[identity];
        expect(subscribe.filter((s) => s.startsWith('_INBOX'))).toEqual([`_INBOX_${identity}.>`]);
        for (const subject of [...subscribe, ...publish]) expect(subject).not.toMatch(/^(>|\*\.>|_INBOX\.>|\$JS\.API\.>)$/);
      }
    });

    it('then each request subject is subscribed by exactly the service that serves it', () => {
      for (const [subject, access] of Object.entries({ ...SUBJECT_REGISTRY, ...HEALTH_ACCESS })) {
        const subscribers = Object.entries(production).filter(([, p]) => p.subscribe.includes(subject)).map(([identity]) => identity);
        expect({ subject, subscribers }).toEqual({ subject, subscribers: [access.servedBy] });
      }
    });

    it('then JetStream rights name exact streams: the ledger publishes to LEDGER_EVENTS, webhooks consume it, the gateway follows it and writes only the raw-mail bucket', () => {
      expect(production.ledger.publish).toEqual(expect.arrayContaining(['$JS.API.STREAM.INFO.LEDGER_EVENTS', 'ledger.events.>']));
      expect(production.webhooks.publish).toEqual(expect.arrayContaining(['$JS.API.CONSUMER.MSG.NEXT.LEDGER_EVENTS.*', '$JS.ACK.LEDGER_EVENTS.>']));
      expect(production.webhooks.publish).not.toContain('ledger.events.>');
      expect(production.gateway.publish.filter((s) => s.startsWith('$'))).toEqual(expect.arrayContaining(['$O.INGEST_RAW.C.>', '$JS.API.STREAM.INFO.OBJ_INGEST_RAW']));
      // Only the migrate step may create a stream or change its settings: a service could lift a limit, or make its
      // stream capture other identities' replies or republish into any subject (NATS checks neither against its rights).
      for (const stream of ['LEDGER_EVENTS', 'INGEST_EMAIL', 'OBJ_INGEST_RAW']) {
        for (const verb of ['CREATE', 'UPDATE']) expect(publishers(production, `$JS.API.STREAM.${verb}.${stream}`)).toEqual([MIGRATE_IDENTITY]);
      }
      expect(production[MIGRATE_IDENTITY].publish.filter((s) => !s.startsWith('$JS.API.STREAM.') && s !== '$JS.API.INFO')).toEqual([]);
      expect(production[MIGRATE_IDENTITY].subscribe).toEqual(['_INBOX_migrate.>']);
      // Following is a plain subscription to the merchant events: no JetStream right on LEDGER_EVENTS at all, since any
      // right to create a consumer there would reach the webhooks' durable one (NATS's older create API names it in the body).
      expect(production.gateway.publish.filter((s) => s.includes('LEDGER_EVENTS'))).toEqual([]);
      // It hears them where the stream republishes them once stored, never the ledger's publishes: those carry the
      // reply subject awaiting JetStream's acknowledgement, which a subscriber allowed responses could answer first.
      expect(production.gateway.subscribe.filter((s) => s.includes('ledger.'))).toEqual(['ledger.feed.merchant.>']);
      for (const [identity, p] of Object.entries(production)) {
        if (p.allowResponses) expect({ identity, hears: p.subscribe.filter((s) => s.startsWith('ledger.events')) }).toEqual({ identity, hears: [] });
      }
      expect(production.gateway.publishDeny).toEqual([]);
      expect(production.webhooks.publishDeny).toEqual([]);
      expect(production.checkout.publish.filter((s) => s.startsWith('$'))).toEqual([]);
    });

    it('then no identity that may put messages into a stream may create a consumer on it: a push consumer delivers, as the server, to any subject its creator names', () => {
      const writes = { LEDGER_EVENTS: ['ledger.events.>'], INGEST_EMAIL: ['ingest.email.raw'], OBJ_INGEST_RAW: ['$O.INGEST_RAW.C.>', '$O.INGEST_RAW.M.>'] };
      for (const [stream, subjects] of Object.entries(writes)) {
        const writers = Object.keys(production).filter((identity) => subjects.some((subject) => production[identity].publish.includes(subject)));
        const creators = Object.keys(production).filter((identity) => production[identity].publish.some((s) => s.startsWith(`$JS.API.CONSUMER.CREATE.${stream}`) || s.startsWith(`$JS.API.CONSUMER.DURABLE.CREATE.${stream}`)));
        expect({ stream, writers: writers.length > 0, both: writers.filter((identity) => creators.includes(identity)) }).toEqual({ stream, writers: true, both: [] });
      }
      // The raw-mail bucket's reader reads objects with direct gets (readBlob), and may still delete them.
      expect(production.ingest.publish).toEqual(expect.arrayContaining(['$JS.API.DIRECT.GET.OBJ_INGEST_RAW', '$O.INGEST_RAW.M.>']));
    });

    it('then the harness identity exists only when asked for', () => {
      expect(production[TEST_CLIENT]).toBeUndefined();
      expect(busPermissions({ kind: 'exact', namespace: '' }, { testClient: true })[TEST_CLIENT].subscribe).toContain('_INBOX_test-client.>');
    });
  });

  describe('given a named namespace', () => {
    it('then subjects carry the namespace token and stream names its "_" prefix', () => {
      const named = busPermissions({ kind: 'exact', namespace: 'prod' });
      expect(named.gateway.publish).toContain('prod.sessions.create.v1');
      expect(named.gateway.publish).not.toContain('sessions.create.v1');
      expect(named.ledger.publish).toEqual(expect.arrayContaining(['prod.ledger.events.>', '$JS.API.STREAM.INFO.prod_LEDGER_EVENTS']));
      expect(named[MIGRATE_IDENTITY].publish).toContain('$JS.API.STREAM.CREATE.prod_LEDGER_EVENTS');
      expect(named.gateway.publish).toContain('$O.prod_INGEST_RAW.C.>');
    });
  });

  describe('given a server shared by any namespace (local and test)', () => {
    const shared = busPermissions({ kind: 'any' }, { testClient: true });

    it('then each subject is allowed bare and under any one namespace token, and stream names are wildcards', () => {
      expect(shared.ingest.publish).toEqual(expect.arrayContaining(['payments.record-transfer.v1', '*.payments.record-transfer.v1', '$JS.ACK.*.>']));
      expect(shared.gateway.publish).not.toContain('*.ledger.append.v1');
    });

    it('then stream names are wildcards, yet no service may create or change a stream: only the migrate step', () => {
      expect(shared.gateway.publish).toContain('$JS.API.STREAM.INFO.*');
      for (const identity of BUS_IDENTITIES.filter((name) => name !== MIGRATE_IDENTITY)) {
        expect({ identity, changes: shared[identity].publish.filter((s) => /^\$JS\.API\.STREAM\.(CREATE|UPDATE|DELETE)\./.test(s)) }).toEqual({ identity, changes: [] });
      }
      expect(shared[MIGRATE_IDENTITY].publish).toEqual(expect.arrayContaining(['$JS.API.STREAM.CREATE.*', '$JS.API.STREAM.UPDATE.*']));
    });

    it('then the harness may call and answer every subject but reads no other identity’s replies', () => {
      const harness = shared[TEST_CLIENT];
      expect(harness.publish).toEqual(expect.arrayContaining(['*.payments.verify.v1', '*.ingest.email.raw', '$JS.API.>']));
      expect(harness.subscribe.filter((s) => s.startsWith('_INBOX'))).toEqual(['_INBOX_test-client.>']);
    });

    it('then no subject under a namespace token can be mistaken for another subject in the bare namespace', () => {
      // `*.X` also matches `<token>.X` in the bare namespace: that must never be another real subject.
      const subjects = [...Object.keys({ ...SUBJECT_REGISTRY, ...HEALTH_ACCESS }), ...STREAM_ACCESS.flatMap((s) => s.subjects)];
      const tails = new Set(subjects.map((subject) => subject.split('.').slice(1).join('.')));
      expect(subjects.filter((subject) => tails.has(subject))).toEqual([]);
    });
  });
});
