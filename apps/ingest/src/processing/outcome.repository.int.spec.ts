import { randomUUID } from 'node:crypto';
import { repositoryDatabase, type TestDatabase, waitFor } from '@pp/testing';
import { Client, type Pool } from 'pg';
import type { AuthenticationResult } from '../authentication/authentication.types';
import { IngestDatabase } from '../database/ingest.database';
import type { NoticeParseResult } from '../parsing/notice.types';
import { OutcomeRepository, type Verdict } from './outcome.repository';
import { NO_SIGNED_RECIPIENT } from './processed-email';
import { storeEmailAt } from './stored-email.fixture';

const LABEL = 'ingestoutcome';
/** The name the repository's connections show in pg_stat_activity (repositoryDatabase). */
const APPLICATION = `${LABEL}-spec`;

/*
 * record and recordHandoff are one SQL statement each. These check what the
 * statements must keep from the transaction they replace (one outcome per
 * e-mail, the reference-number claim written with its outcome or not at all),
 * on real Postgres as the ingest's own role, races included.
 */
describe('OutcomeRepository (real Postgres, the ingest role)', () => {
  let database: TestDatabase;
  let admin: Pool;
  let close: () => Promise<void>;
  let outcomes: OutcomeRepository;

  beforeAll(async () => {
    let dataSource;
    ({ database, dataSource, admin, close } = await repositoryDatabase(IngestDatabase, LABEL));
    outcomes = new OutcomeRepository(dataSource);
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  /** A stored e-mail (the outcome's foreign key), received at `receivedAt`: its id. */
  const storedEmailAt = (receivedAt: Date): Promise<string> => storeEmailAt(admin, receivedAt);
  const storedEmail = () => storedEmailAt(new Date());
  const reference = () => `C1A${randomUUID().replace(/-/g, '').slice(0, 9)}`;

  const genuine: AuthenticationResult = {
    authenticated: true,
    signing_domain: 'payments.interac.ca',
    selector: 's1',
    from: 'notify@payments.interac.ca',
    recipient: { signed_recipient: 'payments@acme.example', reasons: [] },
    signatures: [],
  };
  const forged: AuthenticationResult = { authenticated: false, reasons: ['dkim_missing'], from: 'notify@payments.interac.ca', recipient: NO_SIGNED_RECIPIENT };

  const depositNotice = (referenceNumber: string): NoticeParseResult => {
    const notice = {
      kind: 'deposit' as const,
      language: 'en' as const,
      amount_cents: 1250,
      memo: 'PP-7K3M9Q',
      reference_number: referenceNumber,
      sender_name: 'JO PAYER',
      sender_email: null,
      transfer_date: null,
      sent_at: null,
      subject: 'INTERAC e-Transfer: JO PAYER sent you money.',
      comment: '',
    };
    return { status: 'parsed', notice, fields: { ...notice, amounts: { subject: 1250, body: [1250], message: [] }, memos: [notice.memo], text: '' } };
  };
  const verdict = (emailId: string, referenceNumber: string, authentication: AuthenticationResult = genuine): Verdict => ({
    email_id: emailId,
    received_at: new Date().toISOString(),
    authentication,
    parse: depositNotice(referenceNumber),
    recipients: { to: ['payments@acme.example'], delivered_to: [] },
  });

  const outcomeRows = async (emailId: string) =>
    (await admin.query(`SELECT status, authenticated, duplicate_of FROM ingest.email_outcomes WHERE email_id = $1`, [emailId])).rows;
  const claimOf = async (referenceNumber: string) =>
    (await admin.query(`SELECT email_id FROM ingest.notice_references WHERE reference_number = $1`, [referenceNumber])).rows[0]?.email_id;
  const claimsBy = async (emailId: string) => (await admin.query(`SELECT 1 FROM ingest.notice_references WHERE email_id = $1`, [emailId])).rowCount;

  /** Another writer's transaction, left open until the statement under test waits for it. */
  const openTransaction = async (sql: string, params: unknown[]): Promise<Client> => {
    const other = new Client({ connectionString: database.url });
    await other.connect();
    await other.query('BEGIN');
    await other.query(sql, params);
    return other;
  };
  const finish = async (other: Client, command: 'COMMIT' | 'ROLLBACK') => {
    await waitFor('the statement to wait for the other transaction', async () => {
      const { rowCount } = await admin.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND wait_event_type = 'Lock'`,
        [APPLICATION],
      );
      return rowCount! > 0;
    });
    await other.query(command);
    await other.end();
  };
  /** What a concurrent processing of the e-mail writes first: its outcome (this one claims nothing). */
  const UNAUTHENTICATED_OUTCOME = `INSERT INTO ingest.email_outcomes (email_id, status, authenticated, auth_reasons, parse_reasons, kind, authentication, parse, recipients)
     VALUES ($1, 'unauthenticated', false, '{dkim_missing}', '{}', 'deposit', '{}', '{}', '{}')`;

  /** What another e-mail writes first when it claims a reference number. */
  const CLAIM_REFERENCE = `INSERT INTO ingest.notice_references (reference_number, kind, email_id) VALUES ($1, 'deposit', $2)`;
  /** An e-mail recorded while another one's claim on the same reference number sits in a transaction still open. */
  const recordBehindAnotherClaim = async () => {
    const ref = reference();
    const holder = await storedEmail();
    const emailId = await storedEmail();
    const other = await openTransaction(CLAIM_REFERENCE, [ref, holder]);
    return { ref, holder, emailId, other, answer: outcomes.record(verdict(emailId, ref)) };
  };

  describe('record', () => {
    it('given a verdict holding a NUL and half a surrogate pair (headers passed on as read), when recorded with others: all are stored', async () => {
      const [hostileId, otherId] = [await storedEmail(), await storedEmail()];
      const hostile = verdict(hostileId, reference(), { ...genuine, recipient: { signed_recipient: 'a\u0000b@acme.example', reasons: [] } });
      const parse = hostile.parse as Extract<NoticeParseResult, { status: 'parsed' }>;
      hostile.parse = { ...parse, fields: { ...parse.fields, comment: 'thanks \ud83d' } };
      const answers = await outcomes.recordAll([hostile, verdict(otherId, reference())]);
      expect(answers).toEqual([{ status: 'parsed', duplicate_of: null }, { status: 'parsed', duplicate_of: null }]);
      const stored = await admin.query(`SELECT authentication->'recipient'->>'signed_recipient' AS recipient, parse->'fields'->>'comment' AS comment FROM ingest.email_outcomes WHERE email_id = $1`, [hostileId]);
      expect(stored.rows).toEqual([{ recipient: 'ab@acme.example', comment: 'thanks \ufffd' }]);
    });

    it('given a new genuine notice, when recorded: answers parsed, with its outcome and its reference-number claim written', async () => {
      const emailId = await storedEmail();
      const ref = reference();
      expect(await outcomes.record(verdict(emailId, ref))).toEqual({ status: 'parsed', duplicate_of: null });
      expect(await outcomeRows(emailId)).toEqual([{ status: 'parsed', authenticated: true, duplicate_of: null }]);
      expect(await claimOf(ref)).toBe(emailId);
    });

    it('given a forged notice, when recorded: it claims no reference number, and the genuine one after it is parsed', async () => {
      const ref = reference();
      const forgery = await storedEmail();
      expect(await outcomes.record(verdict(forgery, ref, forged))).toEqual({ status: 'unauthenticated', duplicate_of: null });
      expect(await claimsBy(forgery)).toBe(0);
      const real = await storedEmail();
      expect(await outcomes.record(verdict(real, ref))).toEqual({ status: 'parsed', duplicate_of: null });
      expect(await claimOf(ref)).toBe(real);
    });

    it('given a reference number another e-mail claimed, when a second e-mail with it is recorded: a duplicate of the first, holding no claim', async () => {
      const ref = reference();
      const first = await storedEmail();
      await outcomes.record(verdict(first, ref));
      const second = await storedEmail();
      expect(await outcomes.record(verdict(second, ref))).toEqual({ status: 'duplicate', duplicate_of: first });
      expect(await outcomeRows(second)).toEqual([{ status: 'duplicate', authenticated: true, duplicate_of: first }]);
      expect(await claimsBy(second)).toBe(0);
      expect(await claimOf(ref)).toBe(first);
    });

    it('given an outcome already recorded, when the e-mail is recorded again: answers null and writes nothing', async () => {
      const emailId = await storedEmail();
      const ref = reference();
      await outcomes.record(verdict(emailId, ref));
      expect(await outcomes.record(verdict(emailId, ref))).toBeNull();
      expect(await outcomeRows(emailId)).toHaveLength(1);
    });

    it('when one e-mail is recorded twice at once: exactly one outcome, exactly one call answers it, one claim', async () => {
      for (let round = 0; round < 10; round++) {
        const emailId = await storedEmail();
        const ref = reference();
        const answers = await Promise.all([outcomes.record(verdict(emailId, ref)), outcomes.record(verdict(emailId, ref))]);
        expect(answers.filter((answer) => answer !== null)).toEqual([{ status: 'parsed', duplicate_of: null }]);
        expect(await outcomeRows(emailId)).toHaveLength(1);
        expect(await claimOf(ref)).toBe(emailId);
      }
    });

    it('when one e-mail is recorded at once with different verdicts (a DNS answer changed): the claim exists only if the recorded outcome is the genuine one', async () => {
      for (let round = 0; round < 10; round++) {
        const emailId = await storedEmail();
        const ref = reference();
        const answers = await Promise.all([outcomes.record(verdict(emailId, ref)), outcomes.record(verdict(emailId, ref, forged))]);
        expect(answers.filter((answer) => answer !== null)).toHaveLength(1);
        const [outcome] = await outcomeRows(emailId);
        expect(await claimsBy(emailId)).toBe(outcome.authenticated ? 1 : 0);
      }
    });

    it('given a concurrent writer of the same e-mail that claims nothing, when recorded: waits for it, answers null and leaves no claim', async () => {
      const emailId = await storedEmail();
      const other = await openTransaction(UNAUTHENTICATED_OUTCOME, [emailId]);
      const answer = outcomes.record(verdict(emailId, reference()));
      await finish(other, 'COMMIT');
      expect(await answer).toBeNull();
      expect(await outcomeRows(emailId)).toEqual([{ status: 'unauthenticated', authenticated: false, duplicate_of: null }]);
      expect(await claimsBy(emailId)).toBe(0);
    });

    it('given a concurrent writer of the same e-mail that rolls back, when recorded: records it', async () => {
      const emailId = await storedEmail();
      const ref = reference();
      const other = await openTransaction(UNAUTHENTICATED_OUTCOME, [emailId]);
      const answer = outcomes.record(verdict(emailId, ref));
      await finish(other, 'ROLLBACK');
      expect(await answer).toEqual({ status: 'parsed', duplicate_of: null });
      expect(await claimOf(ref)).toBe(emailId);
    });

    it('given another e-mail claiming the reference number in a transaction not yet committed, when recorded: once it commits, a duplicate of it with no claim', async () => {
      const { holder, emailId, other, answer } = await recordBehindAnotherClaim();
      await finish(other, 'COMMIT');
      expect(await answer).toEqual({ status: 'duplicate', duplicate_of: holder });
      expect(await outcomeRows(emailId)).toEqual([{ status: 'duplicate', authenticated: true, duplicate_of: holder }]);
      expect(await claimsBy(emailId)).toBe(0);
    });

    it('given another e-mail claiming the reference number in a transaction that rolls back, when recorded: it holds the claim', async () => {
      const { ref, emailId, other, answer } = await recordBehindAnotherClaim();
      await finish(other, 'ROLLBACK');
      expect(await answer).toEqual({ status: 'parsed', duplicate_of: null });
      expect(await claimOf(ref)).toBe(emailId);
    });

    it('when two e-mails with one reference number are recorded at once: one is parsed and holds the claim, the other is its duplicate', async () => {
      for (let round = 0; round < 10; round++) {
        const ref = reference();
        const [a, b] = [await storedEmail(), await storedEmail()];
        const answers = await Promise.all([outcomes.record(verdict(a, ref)), outcomes.record(verdict(b, ref))]);
        const holder = await claimOf(ref);
        expect([a, b]).toContain(holder);
        const other = holder === a ? b : a;
        expect(answers[[a, b].indexOf(holder)]).toEqual({ status: 'parsed', duplicate_of: null });
        expect(answers[[a, b].indexOf(other)]).toEqual({ status: 'duplicate', duplicate_of: holder });
        expect(await claimsBy(other)).toBe(0);
      }
    });
  });

  describe('recordAll', () => {
    const transactionsOf = async (emailIds: string[]) =>
      Number((await admin.query(`SELECT count(DISTINCT xmin::text) AS n FROM ingest.email_outcomes WHERE email_id = ANY($1)`, [emailIds])).rows[0].n);

    it('given notices of different transfers and a forgery, when recorded together: one statement, each answered as record would, in order', async () => {
      const [first, second, forgery] = await Promise.all([storedEmail(), storedEmail(), storedEmail()]);
      const [firstRef, secondRef] = [reference(), reference()];
      const answers = await outcomes.recordAll([verdict(first, firstRef), verdict(forgery, secondRef, forged), verdict(second, secondRef)]);
      expect(answers).toEqual([
        { status: 'parsed', duplicate_of: null },
        { status: 'unauthenticated', duplicate_of: null },
        { status: 'parsed', duplicate_of: null },
      ]);
      expect(await transactionsOf([first, second, forgery])).toBe(1);
      expect(await claimOf(firstRef)).toBe(first);
      expect(await claimOf(secondRef)).toBe(second);
      expect(await claimsBy(forgery)).toBe(0);
    });

    it('given two copies of one notice recorded together: the first holds the claim and the second is its duplicate, as one by one', async () => {
      const [original, copy] = await Promise.all([storedEmail(), storedEmail()]);
      const ref = reference();
      expect(await outcomes.recordAll([verdict(original, ref), verdict(copy, ref)])).toEqual([
        { status: 'parsed', duplicate_of: null },
        { status: 'duplicate', duplicate_of: original },
      ]);
      expect(await claimOf(ref)).toBe(original);
      expect(await claimsBy(copy)).toBe(0);
    });

    it('given a notice whose reference another e-mail already claimed, and one e-mail twice, when recorded together: a duplicate, and the repeat answers null', async () => {
      const [holder, late, twice] = await Promise.all([storedEmail(), storedEmail(), storedEmail()]);
      const ref = reference();
      await outcomes.record(verdict(holder, ref));
      const twiceVerdict = verdict(twice, reference());
      expect(await outcomes.recordAll([verdict(late, ref), twiceVerdict, twiceVerdict])).toEqual([
        { status: 'duplicate', duplicate_of: holder },
        { status: 'parsed', duplicate_of: null },
        null,
      ]);
      expect(await outcomeRows(twice)).toHaveLength(1);
    });
  });

  describe('signature claims', () => {
    /** A verified signature of its own (the hex of a fresh random sha256-sized value). */
    const signature = () => ({ signing_domain: 'payments.interac.ca', b_sha256: randomUUID().replace(/-/g, '').repeat(2) });
    const signed = (...signatures: ReturnType<typeof signature>[]): AuthenticationResult => ({ ...genuine, signatures });
    /** A verdict whose reference number was not read (a copy past the parse deadline, say). */
    const unreadable = (emailId: string, authentication: AuthenticationResult): Verdict => {
      const read = verdict(emailId, reference(), authentication);
      return { ...read, parse: { status: 'rejected', reasons: ['parse_timeout'], fields: { ...read.parse.fields, reference_number: null } } };
    };
    const signatureHolders = async (emailId: string) =>
      (await admin.query(`SELECT b_sha256 FROM ingest.notice_signatures WHERE email_id = $1 ORDER BY b_sha256`, [emailId])).rows.map((row) => row.b_sha256);

    it('given a notice holding its signatures, when a copy carrying one of them and no reference number is recorded: a duplicate of it, claiming nothing', async () => {
      const [first, second] = [signature(), signature()];
      const [notice, copy] = [await storedEmail(), await storedEmail()];
      expect(await outcomes.record(verdict(notice, reference(), signed(first, second)))).toEqual({ status: 'parsed', duplicate_of: null });
      expect(await signatureHolders(notice)).toEqual([first.b_sha256, second.b_sha256].sort());
      expect(await outcomes.record(unreadable(copy, signed(second)))).toEqual({ status: 'duplicate', duplicate_of: notice });
      expect(await signatureHolders(copy)).toEqual([]);
    });

    it('given an unauthenticated copy, when recorded: it claims no signature, and the notice after it holds them', async () => {
      const sig = signature();
      const [forgery, notice] = [await storedEmail(), await storedEmail()];
      await outcomes.record(unreadable(forgery, forged));
      expect(await outcomes.record(verdict(notice, reference(), signed(sig)))).toEqual({ status: 'parsed', duplicate_of: null });
      expect(await signatureHolders(notice)).toEqual([sig.b_sha256]);
    });

    it('given two copies carrying one signature recorded together: the first holds the claim and the second is its duplicate, as one by one', async () => {
      const sig = signature();
      const [original, copy] = await Promise.all([storedEmail(), storedEmail()]);
      expect(await outcomes.recordAll([unreadable(original, signed(sig)), unreadable(copy, signed(sig))])).toEqual([
        { status: 'rejected', duplicate_of: null },
        { status: 'duplicate', duplicate_of: original },
      ]);
      expect(await signatureHolders(original)).toEqual([sig.b_sha256]);
    });
  });

  describe('sweeper scans', () => {
    /** A stored e-mail received `agoMs` ago (the sweeper reads by time). */
    const storedAgo = (agoMs: number) => storedEmailAt(new Date(Date.now() - agoMs));
    const hour = 3_600_000;

    it('given a window, when unprocessed e-mails are scanned: those received before it are not read, later ones are, oldest first, with the scan time', async () => {
      const [old, recent, processed] = await Promise.all([storedAgo(24 * hour), storedAgo(60_000), storedAgo(30_000)]);
      await outcomes.record(verdict(processed, reference()));
      const before = Date.now();
      const scan = await outcomes.unprocessed(1_000, new Date(Date.now() - hour));
      expect(scan.found).toContain(recent);
      expect(scan.found).not.toContain(old);
      expect(scan.found).not.toContain(processed);
      expect(scan.scannedAt.getTime()).toBeGreaterThanOrEqual(before - 5_000);
      expect(scan.oldest!.getTime()).toBeLessThanOrEqual(Date.now() - 60_000 + 1_000);
      expect((await outcomes.unprocessed(1_000, null)).found).toContain(old);
    });

    it('given a window after every e-mail, when scanned: nothing found, and still the scan time', async () => {
      const scan = await outcomes.unprocessed(10, new Date(Date.now() + hour));
      expect(scan).toEqual({ found: [], oldest: null, scannedAt: expect.any(Date), last: null });
    });

    it('given more unprocessed e-mails than a page, when read page after page: each once, in order, the cursor after the last', async () => {
      // Received at the same millisecond, so only the id orders them: the cursor must carry both.
      const at = new Date(Date.now() - 7 * 24 * hour);
      const ids = (await Promise.all(Array.from({ length: 5 }, () => storedEmailAt(at)))).sort();
      const since = new Date(at.getTime() - 1);
      const first = await outcomes.unprocessed(2, since);
      expect(first.found).toEqual(ids.slice(0, 2));
      expect(first.last).toEqual({ at, id: ids[1] });
      const second = await outcomes.unprocessed(2, since, first.last);
      expect(second.found).toEqual(ids.slice(2, 4));
      const third = await outcomes.unprocessed(2, since, second.last);
      expect(third.found[0]).toBe(ids[4]);
      expect(third.oldest!.getTime()).toBe(at.getTime());
    });

    it('given outcomes without hand-offs, when scanned: only those inside the window and past the grace are read', async () => {
      const [old, due, fresh] = await Promise.all([storedAgo(0), storedAgo(0), storedAgo(0)]);
      await outcomes.recordAll([verdict(old, reference()), verdict(due, reference()), verdict(fresh, reference())]);
      await admin.query(`ALTER TABLE ingest.email_outcomes DISABLE TRIGGER USER`);
      await admin.query(`UPDATE ingest.email_outcomes SET processed_at = now() - interval '2 days' WHERE email_id = $1`, [old]);
      await admin.query(`UPDATE ingest.email_outcomes SET processed_at = now() - interval '5 minutes' WHERE email_id = $1`, [due]);
      await admin.query(`ALTER TABLE ingest.email_outcomes ENABLE TRIGGER USER`);
      const scan = await outcomes.notHandedOff(60, 1_000, new Date(Date.now() - hour));
      const ids = scan.found.map((email) => email.email_id);
      expect(ids).toContain(due);
      expect(ids).not.toContain(old);
      expect(ids).not.toContain(fresh);
      expect(scan.found.find((email) => email.email_id === due)).toMatchObject({ status: 'parsed', authentication: { authenticated: true } });
    });
  });

  describe('recordHandoff', () => {
    const recordedEmail = async () => {
      const emailId = await storedEmail();
      await outcomes.record(verdict(emailId, reference()));
      return emailId;
    };
    const quarantine = (emailId: string) =>
      admin.query(`INSERT INTO ingest.quarantined_emails (email_id, recipients) VALUES ($1, '{payments@acme.example}')`, [emailId]);
    const handoffOf = async (emailId: string) => (await admin.query(`SELECT disposition FROM ingest.notice_handoffs WHERE email_id = $1`, [emailId])).rows;
    const releaseOf = async (emailId: string) =>
      (await admin.query(`SELECT merchant_id, disposition, payment_id, released_by FROM ingest.quarantine_releases WHERE email_id = $1`, [emailId])).rows;
    /** How many transactions wrote these e-mails' hand-offs (rows one transaction inserts share its xmin). */
    const handoffTransactions = async (emailIds: string[]) =>
      Number((await admin.query(`SELECT count(DISTINCT xmin::text) AS n FROM ingest.notice_handoffs WHERE email_id = ANY($1)`, [emailIds])).rows[0].n);
    const matched = (paymentId: string) => ({ disposition: 'confirmed' as const, payment: { merchant_id: 'mer_shop', payment_id: paymentId } });

    it('given an e-mail an earlier hand-off quarantined, when a hand-off matches it: records the hand-off and its release', async () => {
      const emailId = await recordedEmail();
      await quarantine(emailId);
      await outcomes.recordHandoff(emailId, matched('txn_1'));
      expect(await handoffOf(emailId)).toEqual([{ disposition: 'confirmed' }]);
      expect(await releaseOf(emailId)).toEqual([{ merchant_id: 'mer_shop', disposition: 'confirmed', payment_id: 'txn_1', released_by: null }]);
    });

    it('given an e-mail never quarantined, when a hand-off matches it: records the hand-off only', async () => {
      const emailId = await recordedEmail();
      await outcomes.recordHandoff(emailId, matched('txn_2'));
      expect(await handoffOf(emailId)).toEqual([{ disposition: 'confirmed' }]);
      expect(await releaseOf(emailId)).toEqual([]);
    });

    it('given a quarantined e-mail, when a hand-off does not match it: records the hand-off and releases nothing', async () => {
      const emailId = await recordedEmail();
      await quarantine(emailId);
      await outcomes.recordHandoff(emailId, { disposition: 'quarantined' });
      expect(await handoffOf(emailId)).toEqual([{ disposition: 'quarantined' }]);
      expect(await releaseOf(emailId)).toEqual([]);
    });

    it('when a hand-off is recorded again: the first hand-off and the first release stand', async () => {
      const emailId = await recordedEmail();
      await quarantine(emailId);
      await outcomes.recordHandoff(emailId, matched('txn_3'));
      await outcomes.recordHandoff(emailId, { disposition: 'manual_review', payment: { merchant_id: 'mer_other', payment_id: 'txn_4' } });
      expect(await handoffOf(emailId)).toEqual([{ disposition: 'confirmed' }]);
      expect(await releaseOf(emailId)).toEqual([{ merchant_id: 'mer_shop', disposition: 'confirmed', payment_id: 'txn_3', released_by: null }]);
    });

    it('when hand-offs end at the same moment: one statement records them all, each with its own release, and a repeat within it keeps the first', async () => {
      const [quarantinedId, plainId, unmatchedId] = await Promise.all([recordedEmail(), recordedEmail(), recordedEmail()]);
      await quarantine(quarantinedId);
      await quarantine(unmatchedId);
      await Promise.all([
        outcomes.recordHandoff(quarantinedId, matched('txn_5')),
        outcomes.recordHandoff(plainId, { disposition: 'no_payment' }),
        outcomes.recordHandoff(unmatchedId, { disposition: 'quarantined' }),
        outcomes.recordHandoff(quarantinedId, { disposition: 'manual_review', payment: { merchant_id: 'mer_other', payment_id: 'txn_6' } }),
      ]);
      expect(await handoffTransactions([quarantinedId, plainId, unmatchedId])).toBe(1);
      expect(await handoffOf(quarantinedId)).toEqual([{ disposition: 'confirmed' }]);
      expect(await releaseOf(quarantinedId)).toEqual([{ merchant_id: 'mer_shop', disposition: 'confirmed', payment_id: 'txn_5', released_by: null }]);
      expect(await handoffOf(plainId)).toEqual([{ disposition: 'no_payment' }]);
      expect(await handoffOf(unmatchedId)).toEqual([{ disposition: 'quarantined' }]);
      expect(await releaseOf(unmatchedId)).toEqual([]);
    });
  });
});
