import { createHash } from 'node:crypto';
import { DomainError, ErrorCode, INGEST_RAW_EMAIL_SUBJECT, ingestRawEmailBucketName, ingestRawEmailStreamName, type PaymentView } from '@pp/contracts';
import { BusClient, connectNats, openBlobBucket, requestContext } from '@pp/platform';
import { buildNotice, signEmail, TestStack, testDkimKey, waitFor, writeDnsOverrides, type NoticeSpec } from '@pp/testing';
import { headers, type Msg, type NatsConnection } from 'nats';
import type { Pool } from 'pg';

describe('ingest intake over NATS and Postgres', () => {
  let stack: TestStack;
  let nc: NatsConnection;
  let bus: BusClient;
  let db: Pool;
  let serial = 0;

  beforeAll(async () => {
    stack = await TestStack.start({
      // The gateway answers matching's merchant lookup: no merchant is registered here, so hand-offs end in quarantine.
      services: ['ingest', 'gateway'],
      label: 'ingest',
      env: { INGEST_DNS_OVERRIDES: writeDnsOverrides(testDkimKey()) },
    });
    nc = await connectNats(stack.env.NATS_URL, 'email-intake-spec');
    bus = new BusClient(nc, stack.namespace, 10_000);
    db = await stack.sql();
  });

  afterAll(async () => {
    // The stream outlives the services; remove this run's copy from the shared NATS server.
    await (await nc?.jetstreamManager())?.streams.delete(ingestRawEmailStreamName(stack.namespace)).catch(() => undefined);
    await nc?.drain();
    await stack?.stop();
  });

  /** A signed deposit notice with its own Message-ID and reference number unless the spec sets them. */
  const notice = (spec: NoticeSpec = {}) => {
    serial += 1;
    return signEmail(
      buildNotice({ messageId: `<n${serial}.${stack.namespace}@payments.interac.ca>`, reference: `C1Ax${stack.namespace.slice(1, 6)}${String(serial).padStart(3, '0')}`, ...spec }),
    );
  };
  const submit = (raw: string) => bus.request('ingest.email.submit.v1', { raw_base64: Buffer.from(raw).toString('base64') });
  const publish = (raw: string) => nc.jetstream().publish(`${stack.namespace}.${INGEST_RAW_EMAIL_SUBJECT}`, Buffer.from(raw));
  const row = async (sql: string, params: unknown[]) => (await db.query(sql, params)).rows[0];
  const outcomeOf = (emailId: string) => row(`SELECT * FROM ingest.email_outcomes WHERE email_id = $1`, [emailId]);
  const messageIdOf = (raw: string) => /^Message-ID: (.+)$/m.exec(raw)![1].trim();

  it('stores, authenticates and parses a notice submitted on the bus, then hands it over for matching', async () => {
    const raw = await notice();
    const reply = await submit(raw);
    expect(reply).toEqual({ id: expect.stringMatching(/^em_/), status: 'accepted' });

    const stored = await row(`SELECT raw, channel FROM ingest.emails WHERE id = $1`, [reply.id]);
    expect(stored.raw.toString()).toBe(raw);
    expect(stored.channel).toBe('bus');
    const outcome = await outcomeOf(reply.id);
    expect(outcome).toMatchObject({ status: 'parsed', authenticated: true, signing_domain: 'payments.interac.ca', memo: 'PP-7K3M9Q' });
    expect(Number(outcome.amount_cents)).toBe(120000);
    expect(outcome.parse.notice).toMatchObject({ amount_cents: 120000, sender_name: 'CAI FANG WU' });
    expect(outcome.recipients).toEqual({ to: ['payments@acme.example'], delivered_to: [] });
    const handoff = await waitFor('the hand-off', () => row(`SELECT disposition FROM ingest.notice_handoffs WHERE email_id = $1`, [reply.id]));
    expect(handoff.disposition).toBe('quarantined');
  });

  it('answers a copy with the same Message-ID as a duplicate of the stored e-mail', async () => {
    const raw = await notice();
    const first = await submit(raw);
    const second = await submit(raw);
    expect(second).toEqual({ id: first.id, status: 'duplicate' });
    const receipts = await db.query(`SELECT status FROM ingest.email_receipts WHERE email_id = $1 ORDER BY id`, [first.id]);
    expect(receipts.rows.map((r) => r.status)).toEqual(['accepted', 'duplicate']);
    const copies = await row(`SELECT count(*)::int AS n FROM ingest.emails WHERE message_id = $1`, [messageIdOf(raw)]);
    expect(copies.n).toBe(1);
  });

  it('records a second notice with the same Interac reference number as a duplicate, never processed twice', async () => {
    const first = await submit(await notice({ reference: 'C1ADupRef001' }));
    const second = await submit(await notice({ reference: 'C1ADupRef001' }));
    expect(first.status).toBe('accepted');
    expect(second).toEqual({ id: expect.not.stringMatching(first.id), status: 'duplicate' });
    expect(await outcomeOf(second.id)).toMatchObject({ status: 'duplicate', duplicate_of: first.id });
    await waitFor('the first hand-off', () => row(`SELECT 1 FROM ingest.notice_handoffs WHERE email_id = $1`, [first.id]));
    expect(await row(`SELECT 1 AS x FROM ingest.notice_handoffs WHERE email_id = $1`, [second.id])).toBeUndefined();
  });

  it('answers a genuine notice re-sent with trailing blank lines as a duplicate, though neither copy has a reference number to claim', async () => {
    // DKIM ignores trailing empty lines: the copy verifies, by the signature the first one claimed.
    const raw = await notice({ reference: null });
    const first = await submit(raw);
    expect(await outcomeOf(first.id)).toMatchObject({ status: 'rejected', authenticated: true, reference_number: null });
    const copy = await submit(`${raw}\n\n\n`);
    expect(copy).toEqual({ id: expect.not.stringMatching(first.id), status: 'duplicate' });
    expect(await outcomeOf(copy.id)).toMatchObject({ status: 'duplicate', authenticated: true, duplicate_of: first.id });
    expect(await row(`SELECT 1 AS x FROM ingest.notice_handoffs WHERE email_id = $1`, [copy.id])).toBeUndefined();
  });

  it('records a genuine notice re-sent, ahead of it, with an unsigned top-level Content-Disposition as unauthenticated: it claims nothing, and the notice is processed', async () => {
    // "attachment" makes the MIME parser drop the text: authenticated, the copy would claim the signature and make the notice its duplicate.
    const raw = await notice();
    const copy = await submit(`Content-Disposition: attachment\n${raw}`);
    expect(await outcomeOf(copy.id)).toMatchObject({ status: 'unauthenticated', auth_reasons: expect.arrayContaining(['header_not_signed:content-disposition']) });
    const genuine = await submit(raw);
    expect(genuine.status).toBe('accepted');
    expect(await outcomeOf(genuine.id)).toMatchObject({ status: 'parsed', authenticated: true });
  });

  it('lets a forged notice claim no reference number: the genuine one is still processed', async () => {
    const forged = buildNotice({ reference: 'C1AForged001', messageId: `<forged.${stack.namespace}@evil.example>` });
    const forgedReply = await submit(forged);
    expect(await outcomeOf(forgedReply.id)).toMatchObject({ status: 'unauthenticated', authenticated: false, auth_reasons: ['dkim_missing'] });
    const genuine = await submit(await notice({ reference: 'C1AForged001' }));
    expect(genuine.status).toBe('accepted');
    expect(await outcomeOf(genuine.id)).toMatchObject({ status: 'parsed' });
  });

  it('lets a forgery carrying a genuine Message-ID suppress nothing: the genuine notice arriving after it is stored and processed', async () => {
    const spec = { messageId: `<spoofed.${stack.namespace}@payments.interac.ca>`, reference: 'C1ASpoofMid1' };
    const forged = await submit(buildNotice({ ...spec, message: 'PP-4H8WXY' }));
    expect(forged.status).toBe('accepted');
    expect(await outcomeOf(forged.id)).toMatchObject({ status: 'unauthenticated', auth_reasons: ['dkim_missing'] });

    const raw = await signEmail(buildNotice(spec));
    const genuine = await submit(raw);
    expect(genuine).toEqual({ id: expect.not.stringMatching(forged.id), status: 'accepted' });
    expect(await outcomeOf(genuine.id)).toMatchObject({ status: 'parsed', authenticated: true, memo: 'PP-7K3M9Q' });
    const copies = await db.query(`SELECT id FROM ingest.emails WHERE message_id = $1 ORDER BY received_at`, [spec.messageId]);
    expect(copies.rows.map((r) => r.id)).toEqual([forged.id, genuine.id]);
    // The exact same bytes again are still a duplicate of the stored copy.
    expect(await submit(raw)).toEqual({ id: genuine.id, status: 'duplicate' });
  });

  it('takes raw bytes from JetStream, stores them, then processes them', async () => {
    const raw = await notice({ language: 'fr', layout: 'inline' });
    await publish(raw);
    const stored = await waitFor('the JetStream e-mail', () =>
      row(`SELECT id, channel FROM ingest.emails WHERE message_id = $1`, [messageIdOf(raw)]),
    );
    expect(stored.channel).toBe('jetstream');
    const outcome = await waitFor('its outcome', () => outcomeOf(stored.id));
    expect(outcome).toMatchObject({ status: 'parsed', kind: 'deposit' });
    expect(Number(outcome.amount_cents)).toBe(2500);
  });

  it('stores the same notice once when it arrives both ways at the same time', async () => {
    for (let round = 0; round < 3; round++) {
      const raw = await notice();
      const [reply] = await Promise.all([submit(raw), publish(raw)]);
      const receipts = await waitFor('both arrivals', async () => {
        const rows = (
          await db.query(
            `SELECT r.status, r.channel, r.email_id FROM ingest.email_receipts r JOIN ingest.emails e ON e.id = r.email_id WHERE e.message_id = $1`,
            [messageIdOf(raw)],
          )
        ).rows;
        return rows.length === 2 && rows;
      });
      expect(receipts.map((r) => r.status).sort()).toEqual(['accepted', 'duplicate']);
      expect(new Set(receipts.map((r) => r.email_id))).toEqual(new Set([reply.id]));
      const outcomes = await row(`SELECT count(*)::int AS n FROM ingest.email_outcomes WHERE email_id = $1`, [reply.id]);
      expect(outcomes.n).toBeLessThanOrEqual(1);
      await waitFor('one outcome', async () => (await outcomeOf(reply.id))?.status === 'parsed');
    }
  });

  it('refuses input that is not an RFC 822 message with VALIDATION_FAILED', async () => {
    const attempt = bus.request('ingest.email.submit.v1', { raw_base64: Buffer.from('{"not":"mail"}').toString('base64') });
    await expect(attempt).rejects.toMatchObject({ code: ErrorCode.ValidationFailed });
    await expect(bus.request('ingest.email.submit.v1', { raw_base64: '***' })).rejects.toBeInstanceOf(DomainError);
  });

  it('answers a post naming the object of a message stored already, since removed, as its duplicate; an unknown object as a bad request', async () => {
    const raw = await notice();
    const first = await submit(raw);
    const objectName = createHash('sha256').update(raw).digest('hex');
    // A retried large post: its object, shared with the first post by name, was removed once the first stored the message.
    expect(await bus.request('ingest.email.submit.v1', { object_name: objectName })).toEqual({ id: first.id, status: 'duplicate' });
    expect(await row(`SELECT count(*)::int AS n FROM ingest.email_receipts WHERE email_id = $1 AND status = 'duplicate'`, [first.id])).toEqual({ n: 1 });
    const unknown = bus.request('ingest.email.submit.v1', { object_name: 'f'.repeat(64) });
    await expect(unknown).rejects.toMatchObject({ code: ErrorCode.ValidationFailed, message: 'Validation failed: object_name names no stored message' });
  });

  it('answers a post naming the object of a message stored without the mbox postmark in front of it, since removed, as its duplicate', async () => {
    // The gateway names the object by the hash of the posted bytes; intake stores (and hashes) them without the postmark.
    const posted = Buffer.from(`From notify@payments.interac.ca Wed Aug 26 14:03:11 2026\n${await notice()}`);
    const objectName = createHash('sha256').update(posted).digest('hex');
    await (await openBlobBucket(nc, ingestRawEmailBucketName(stack.namespace))).putBlob({ name: objectName }, posted);
    const first = await bus.request('ingest.email.submit.v1', { object_name: objectName });
    expect(first).toEqual({ id: expect.stringMatching(/^em_/), status: 'accepted' });
    // A second post of the same message put the same object before the first removed it, and asks for it after.
    expect(await bus.request('ingest.email.submit.v1', { object_name: objectName })).toEqual({ id: first.id, status: 'duplicate' });
  });

  it('keeps the raw message and its outcome append-only in the database', async () => {
    const reply = await submit(await notice());
    await expect(db.query(`UPDATE ingest.emails SET raw = 'x' WHERE id = $1`, [reply.id])).rejects.toThrow(/append-only/);
    await expect(db.query(`DELETE FROM ingest.emails WHERE id = $1`, [reply.id])).rejects.toThrow(/append-only/);
    await expect(db.query(`UPDATE ingest.email_outcomes SET status = 'parsed' WHERE email_id = $1`, [reply.id])).rejects.toThrow(/append-only/);
    await expect(db.query(`TRUNCATE ingest.email_receipts CASCADE`)).rejects.toThrow(/append-only/);
  });

  it('answers a submitted notice once its outcome is recorded, while its hand-off still waits for the merchant lookup', async () => {
    // The test answers the lookup in the gateway's place, when it chooses.
    await stack.stopService('gateway');
    const lookups: Msg[] = [];
    const lookup = nc.subscribe(`${stack.namespace}.identity.merchants-by-deposit-address.v1`, { callback: (_, msg) => lookups.push(msg) });
    try {
      const reply = await submit(await notice());
      expect(reply.status).toBe('accepted');
      expect(await outcomeOf(reply.id)).toMatchObject({ status: 'parsed', authenticated: true });
      await waitFor('the hand-off’s merchant lookup', () => lookups.length > 0);
      expect(await row(`SELECT 1 AS x FROM ingest.notice_handoffs WHERE email_id = $1`, [reply.id])).toBeUndefined();

      for (const msg of lookups) msg.respond(Buffer.from(JSON.stringify({ ok: true, data: { owners: [] } })));
      const handoff = await waitFor('the hand-off', () => row(`SELECT disposition FROM ingest.notice_handoffs WHERE email_id = $1`, [reply.id]));
      expect(handoff.disposition).toBe('quarantined');
    } finally {
      lookup.unsubscribe();
      await stack.startService('gateway');
    }
  });

  it('hands a posted notice over to payments after the submit’s deadline has passed, under the submit’s request id', async () => {
    // The test answers the merchant lookup in the gateway's place and record-transfer in the sessions service's.
    await stack.stopService('gateway');
    const lookups: Msg[] = [];
    const transfers: Msg[] = [];
    const lookup = nc.subscribe(`${stack.namespace}.identity.merchants-by-deposit-address.v1`, { callback: (_, msg) => lookups.push(msg) });
    const recordTransfer = nc.subscribe(`${stack.namespace}.payments.record-transfer.v1`, { callback: (_, msg) => transfers.push(msg) });
    const answer = (msg: Msg, data: unknown) => msg.respond(Buffer.from(JSON.stringify({ ok: true, data })));
    try {
      const SUBMIT_WAITS_MS = 5_000;
      const requestId = `submit-${stack.namespace}`;
      const submittedAt = Date.now();
      const raw = Buffer.from(await notice()).toString('base64');
      const reply = await requestContext.run({ requestId }, () => bus.request('ingest.email.submit.v1', { raw_base64: raw }, { timeoutMs: SUBMIT_WAITS_MS }));
      expect(reply.status).toBe('accepted');
      await waitFor('the hand-off’s merchant lookup', () => lookups.length > 0);

      // Payments are slow to be reached (a busy gateway): the merchant is named only once the submitter has stopped waiting.
      await new Promise((resolve) => setTimeout(resolve, submittedAt + SUBMIT_WAITS_MS + 500 - Date.now()));
      for (const msg of lookups) answer(msg, { owners: [{ merchant_id: 'mer_acme', address: 'payments@acme.example' }] });
      const transfer = await waitFor('its record-transfer', () => transfers.find((msg) => JSON.parse(Buffer.from(msg.data).toString()).email_id === reply.id));
      expect(transfer.headers?.get('x-request-id')).toBe(requestId);
      const payment: Partial<PaymentView> = { id: 'txn_behind', status: 'REQUIRES_MANUAL_REVIEW', review_reasons: ['unknown_memo'] };
      answer(transfer, payment);
      const handoff = await waitFor('the hand-off', () => row(`SELECT disposition FROM ingest.notice_handoffs WHERE email_id = $1`, [reply.id]));
      expect(handoff.disposition).toBe('manual_review');
    } finally {
      lookup.unsubscribe();
      recordTransfer.unsubscribe();
      await stack.startService('gateway');
    }
  });

  it('hands a notice the mail pipeline published to JetStream over to payments under the request id it sent, or one of its own', async () => {
    await stack.stopService('gateway');
    const transfers: Msg[] = [];
    const lookup = nc.subscribe(`${stack.namespace}.identity.merchants-by-deposit-address.v1`, {
      callback: (_, msg) => msg.respond(Buffer.from(JSON.stringify({ ok: true, data: { owners: [{ merchant_id: 'mer_acme', address: 'payments@acme.example' }] } }))),
    });
    const recordTransfer = nc.subscribe(`${stack.namespace}.payments.record-transfer.v1`, { callback: (_, msg) => transfers.push(msg) });
    try {
      const sent = headers();
      sent.set('x-request-id', `mailpipe-${stack.namespace}`);
      const [named, unnamed] = await Promise.all([notice(), notice()]);
      await nc.jetstream().publish(`${stack.namespace}.${INGEST_RAW_EMAIL_SUBJECT}`, Buffer.from(named), { headers: sent });
      await nc.jetstream().publish(`${stack.namespace}.${INGEST_RAW_EMAIL_SUBJECT}`, Buffer.from(unnamed));
      await waitFor('both record-transfers', () => transfers.length === 2);

      const ids = transfers.map((msg) => msg.headers?.get('x-request-id'));
      expect(ids).toContain(`mailpipe-${stack.namespace}`);
      expect(ids.find((id) => id !== `mailpipe-${stack.namespace}`)).toMatch(/^[0-9a-f-]{36}$/);
      for (const msg of transfers) msg.respond(Buffer.from(JSON.stringify({ ok: true, data: { id: 'txn_js', status: 'REQUIRES_MANUAL_REVIEW', review_reasons: ['unknown_memo'] } })));
    } finally {
      lookup.unsubscribe();
      recordTransfer.unsubscribe();
      await stack.startService('gateway');
    }
  });
});
