import { randomUUID } from 'node:crypto';
import { type CheckoutSessionView, INGEST_RAW_EMAIL_SUBJECT, ingestRawEmailStreamName } from '@pp/contracts';
import { buildNotice, signEmail, TestStack, testDkimKey, waitFor, writeDnsOverrides } from '@pp/testing';
import type { NatsConnection } from 'nats';
import { connectNats } from '@pp/platform';
import type { Pool } from 'pg';
import type { ProvisionedMerchantView } from '../identity/identity.views';
import { GatewayClient } from '../testing/gateway-client';

/*
 * Hostile e-mail against the running stack (issue 13 §5): anyone can send
 * mail to a merchant's deposit address, so the mail relay hands ingest
 * whatever arrives. Messages built to make a parser or the DKIM verifier work
 * for hours are answered at once, kept as evidence with an outcome (never left
 * for the sweeper to read again), and a genuine notice sent while they are
 * being read or verified still confirms its live session within seconds.
 */

const SHOP_ADDRESS = 'payments@hostile-shop.example';
/*
 * The reading deadline. The slowest hostile shape read in full below (unclosed elements) takes about 70 ms
 * on our two-core machines, and a MiB of short lines, the slowest shape we found for the MIME decoder,
 * about two seconds: four times this.
 */
const PARSE_TIMEOUT_MS = 500;
const BODY_BYTES = 4 * 1024 * 1024; // under the 5 MB intake limit with the headers
const LINE_BOMB_BYTES = 1.2 * 1024 * 1024;
/** Short lines under a DKIM signature, leaving room under the 5 MB intake limit for EXTRA_SIGNATURES' headers. */
const SIGNED_LINES_BYTES = 4.7 * 1024 * 1024;
/** The authentication deadline: the service's default. */
const AUTH_TIMEOUT_MS = 10_000;
/*
 * How long the gateway may take to answer one hostile message. A regression
 * guard, not a speed measurement: the old parser spent hours on these (the
 * event loop blocked, so every other request stalled too); now each is read
 * in milliseconds, or given up at the authentication and parse deadlines. The
 * answer may wait for both, and ten seconds more leave room for a loaded
 * two-core machine: the signed line bomb's answer once took over ten seconds
 * in a full CI run there.
 */
const ANSWER_BUDGET_MS = AUTH_TIMEOUT_MS + PARSE_TIMEOUT_MS + 10_000;
/*
 * Extra signatures with distinct l= values, each one more hash of the whole
 * body (mailauth hashes once per canonicalization and length): about 30 ms
 * of CPU each for these 4.7 MB of short lines on a two-core machine of ours
 * (authentication/dkim-verification.ts), so 900 of them would take about
 * half a minute, were they verified. Their 113 KB stay under the intake's
 * limit on the header section (128 KiB and 2,000 lines, HEADER_SECTION_LIMITS).
 */
const EXTRA_SIGNATURES = 900;

const repeatTo = (fragment: string, length: number) => fragment.repeat(Math.ceil(length / fragment.length)).slice(0, length);

/** A raw message that is no Interac notice: From a stranger, to the shop's deposit address. */
const junk = (name: string, body: string, type = 'text/plain', subject = 'Hello') =>
  [
    `From: "Mallory" <mallory@evil.example>`,
    `To: ${SHOP_ADDRESS}`,
    `Subject: ${subject}`,
    'Date: Wed, 26 Aug 2026 14:03:11 -0400',
    `Message-ID: <${name}.${randomUUID()}@evil.example>`,
    'MIME-Version: 1.0',
    `Content-Type: ${type}; charset=utf-8`,
    '',
    body,
  ].join('\n');

describe('hostile e-mail', () => {
  let stack: TestStack;
  let gateway: GatewayClient;
  let nc: NatsConnection;
  let db: Pool;
  let shop: ProvisionedMerchantView;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'sessions', 'ledger', 'ingest'],
      label: 'hostile-email',
      env: {
        INGEST_DNS_OVERRIDES: writeDnsOverrides(testDkimKey()),
        INGEST_PARSE_TIMEOUT_MS: String(PARSE_TIMEOUT_MS),
        INGEST_AUTH_TIMEOUT_MS: String(AUTH_TIMEOUT_MS),
      },
    });
    gateway = new GatewayClient(stack);
    nc = await connectNats(stack.env.NATS_URL, 'hostile-email-spec');
    db = await stack.sql();
    shop = await gateway.createMerchant('Hostile Shop');
    const patched = await gateway.call(`/v1/admin/merchants/${shop.merchant_id}`, { method: 'PATCH', token: gateway.adminToken, body: { etransfer_email: SHOP_ADDRESS } });
    expect(patched.status).toBe(200);
  });

  afterAll(async () => {
    await (await nc?.jetstreamManager())?.streams.delete(ingestRawEmailStreamName(stack.namespace)).catch(() => undefined);
    await nc?.drain();
    await stack?.stop();
  });

  /** Posts one raw message as the mail relay does; resolves with the answer and how long it took. */
  async function post(raw: string): Promise<{ status: number; id: string; ms: number }> {
    const started = Date.now();
    const result = await gateway.call<{ id: string }>('/v1/internal/ingest-email', {
      token: stack.env.INGEST_TOKEN,
      body: raw,
      headers: { 'content-type': 'message/rfc822' },
      idempotencyKey: null,
    });
    return { status: result.status, id: result.body?.id, ms: Date.now() - started };
  }
  const row = async (sql: string, params: unknown[]) => (await db.query(sql, params)).rows[0];
  const dispositionOf = (emailId: string) =>
    waitFor(`the hand-off of ${emailId}`, async () => (await row(`SELECT disposition FROM ingest.notice_handoffs WHERE email_id = $1`, [emailId]))?.disposition as string | undefined);

  /** A live $25.00 session of the shop. */
  async function createSession(): Promise<{ id: string; memo: string }> {
    const session = await gateway.call<{ id: string; memo: string }>('/v1/checkout/sessions', {
      token: shop.keys.live_secret,
      body: { amount: 2500, currency: 'cad', reference: `order-${randomUUID()}`, success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' },
    });
    expect(session.status).toBe(201);
    return session.body;
  }

  it('answers pathological e-mails quickly, keeps each with an outcome, and confirms a genuine notice sent meanwhile', async () => {
    const session = await createSession();
    // A million short lines (the first MiB is all the parser reads) keep the MIME decoder busy for about two
    // seconds: only the worker's deadline ends that.
    const lineBomb = repeatTo('\n', LINE_BOMB_BYTES);
    const hostile: Array<[string, string]> = [
      ['whitespace after PP', junk('spaces', 'PP' + ' '.repeat(BODY_BYTES))],
      ['unclosed "<"', junk('lt', '<'.repeat(BODY_BYTES), 'text/html')],
      ['a comment that never ends', junk('comment', '<!--' + repeatTo('<!-- <p> ', BODY_BYTES), 'text/html')],
      ['unclosed elements', junk('nesting', repeatTo('<div><td>', BODY_BYTES), 'text/html')],
      ['a long digit run after an amount', junk('digits', 'Funds Deposited! $' + '9'.repeat(BODY_BYTES) + ',')],
      // NUL cannot be stored in Postgres jsonb: left in the parse, the outcome could never be recorded.
      ['NUL bytes in the body and the subject', junk('nul', 'Message: PP-7K3M9Q\u0000', 'text/plain', '=?UTF-8?B?YQBi?=')],
      ['a line bomb', junk('lines', lineBomb)],
      [
        'a signed Interac deposit that is a line bomb',
        // Its memo names no session: had it been read in time, it could not race the genuine notice.
        await signEmail(buildNotice({ to: SHOP_ADDRESS, message: 'PP-ZZZZZZ', amount: '$25.00', messageId: `<bomb.${randomUUID()}@payments.interac.ca>` }) + lineBomb),
      ],
    ];

    const answers = hostile.map(([, raw]) => post(raw));
    // Sent once they are all stored, so that ingest is reading them while the genuine notice arrives.
    await waitFor('the hostile messages to be stored', async () => (await row(`SELECT count(*)::int AS n FROM ingest.emails`, [])).n === hostile.length, { timeoutMs: 30_000 });
    const genuine = await post(
      await signEmail(buildNotice({ to: SHOP_ADDRESS, message: session.memo, amount: '$25.00', messageId: `<genuine.${randomUUID()}@payments.interac.ca>`, reference: 'C1AHostile01' })),
    );
    expect(genuine).toMatchObject({ status: 202, id: expect.stringMatching(/^em_/) });
    expect(await dispositionOf(genuine.id)).toBe('confirmed');
    const completed = await gateway.call<CheckoutSessionView>(`/v1/checkout/sessions/${session.id}`, { token: shop.keys.live_secret });
    expect(completed.body.status).toBe('COMPLETED');

    const replies = await Promise.all(answers);
    replies.forEach((reply, i) => {
      expect({ shape: hostile[i][0], status: reply.status, fast: reply.ms < ANSWER_BUDGET_MS }).toEqual({ shape: hostile[i][0], status: 202, fast: true });
    });
    const outcomes = await db.query(`SELECT email_id, status, parse_reasons FROM ingest.email_outcomes WHERE email_id = ANY($1)`, [replies.map((reply) => reply.id)]);
    expect(outcomes.rows).toHaveLength(hostile.length);
    const byId = new Map(outcomes.rows.map((outcome) => [outcome.email_id, outcome]));
    const outcomeOf = (shape: string) => byId.get(replies[hostile.findIndex(([name]) => name === shape)].id);
    expect(outcomeOf('a line bomb')).toMatchObject({ status: 'unauthenticated', parse_reasons: ['parse_timeout'] });
    expect(outcomeOf('a signed Interac deposit that is a line bomb')).toMatchObject({ status: 'rejected', parse_reasons: ['parse_timeout'] });
    expect(outcomeOf('whitespace after PP')).toMatchObject({ status: 'unauthenticated', parse_reasons: ['unrecognized_notice', 'message_too_long'] });

    // Every message has its hand-off, none confirmed anything, and none is left for the sweeper to read again.
    for (const reply of replies) expect(await dispositionOf(reply.id)).not.toBe('confirmed');
    const unprocessed = await row(`SELECT count(*)::int AS n FROM ingest.emails e WHERE NOT EXISTS (SELECT 1 FROM ingest.email_outcomes o WHERE o.email_id = e.id)`, []);
    expect(unprocessed.n).toBe(0);
  }, 120_000); // the answers may take up to ANSWER_BUDGET_MS each, in parallel, on a loaded machine

  it('refuses a signed 5 MB message with hundreds of signatures unverified, at once, and a genuine notice sent after it confirms', async () => {
    const session = await createSession();
    // A valid Interac signature over 4.7 MB of short lines, under signatures that would each hash them again and look
    // a key up: about half a minute of a worker before the cap (MAX_DKIM_SIGNATURES). Its memo names no session.
    const bombMessageId = `<dkim-bomb.${randomUUID()}@payments.interac.ca>`;
    const signed = await signEmail(
      buildNotice({ to: SHOP_ADDRESS, message: 'PP-ZZZZZZ', amount: '$25.00', messageId: bombMessageId }) + repeatTo('x\n', SIGNED_LINES_BYTES),
    );
    const key = testDkimKey();
    const lengths = Array.from(
      { length: EXTRA_SIGNATURES },
      (_, i) => `DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=${key.domain}; s=${key.selector}; l=${SIGNED_LINES_BYTES - i}; h=from:subject; bh=AAAA; b=AAAA`,
    );
    const answer = await post(`${lengths.join('\n')}\n${signed}`);
    expect(answer).toMatchObject({ status: 202, id: expect.stringMatching(/^em_/) });
    const outcomeOf = (emailId: string) => row(`SELECT status, auth_reasons FROM ingest.email_outcomes WHERE email_id = $1`, [emailId]);
    expect(await outcomeOf(answer.id)).toEqual({ status: 'unauthenticated', auth_reasons: ['dkim_too_many_signatures'] });
    expect(await dispositionOf(answer.id)).not.toBe('confirmed');

    const genuine = await post(
      await signEmail(buildNotice({ to: SHOP_ADDRESS, message: session.memo, amount: '$25.00', messageId: `<after-bomb.${randomUUID()}@payments.interac.ca>`, reference: 'C1AHostile03' })),
    );
    expect(genuine).toMatchObject({ status: 202, id: expect.stringMatching(/^em_/) });
    expect(await dispositionOf(genuine.id)).toBe('confirmed');
    const completed = await gateway.call<CheckoutSessionView>(`/v1/checkout/sessions/${session.id}`, { token: shop.keys.live_secret });
    expect(completed.body.status).toBe('COMPLETED');
  });

  it('records a hostile message from JetStream as parse_timeout, and the notice queued behind it still confirms', async () => {
    const session = await createSession();
    // Up to one NATS message: a MiB of short lines keeps the MIME decoder busy past the deadline.
    const bomb = Buffer.from(junk('jetstream-lines', repeatTo('\n', Math.min(LINE_BOMB_BYTES, nc.info!.max_payload - 1024))));
    const genuine = await signEmail(buildNotice({ to: SHOP_ADDRESS, message: session.memo, amount: '$25.00', messageId: `<js.${randomUUID()}@payments.interac.ca>`, reference: 'C1AHostile02' }));
    const idOf = (raw: string) => waitFor('the message to be stored', async () => (await row(`SELECT id FROM ingest.emails WHERE message_id = $1`, [/^Message-ID: (.+)$/m.exec(raw)![1]]))?.id as string | undefined);
    const js = nc.jetstream();
    await js.publish(`${stack.namespace}.${INGEST_RAW_EMAIL_SUBJECT}`, bomb);
    await js.publish(`${stack.namespace}.${INGEST_RAW_EMAIL_SUBJECT}`, Buffer.from(genuine));

    expect(await dispositionOf(await idOf(genuine))).toBe('confirmed');
    const bombId = await idOf(bomb.toString());
    const outcome = await waitFor('the outcome of the bomb', () => row(`SELECT status, parse_reasons FROM ingest.email_outcomes WHERE email_id = $1`, [bombId]));
    expect(outcome).toEqual({ status: 'unauthenticated', parse_reasons: ['parse_timeout'] });
  });
});
