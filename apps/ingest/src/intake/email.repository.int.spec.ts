import { randomUUID } from 'node:crypto';
import { repositoryDatabase } from '@pp/testing';
import type { Pool } from 'pg';
import { IngestDatabase } from '../database/ingest.database';
import { type Arrival, EmailRepository, type IntakeChannel } from './email.repository';
import { inspectRawMessage } from './raw-message';

/*
 * storeAll is one statement for many arrivals. These check that it keeps
 * what storing one message at a time gives: one stored copy per content, a
 * receipt for every arrival, the stored e-mail handed back only to the
 * arrival that stored it.
 */
describe('EmailRepository (real Postgres, the ingest role)', () => {
  let admin: Pool;
  let close: () => Promise<void>;
  let emails: EmailRepository;

  beforeAll(async () => {
    let dataSource;
    ({ dataSource, admin, close } = await repositoryDatabase(IngestDatabase, 'ingestemails'));
    emails = new EmailRepository(dataSource);
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  const rawMessage = (body: string = randomUUID()) => Buffer.from(`From: notify@payments.interac.ca\r\nMessage-ID: <${randomUUID()}@x>\r\n\r\n${body}`);
  const arrival = (bytes: Buffer, channel: IntakeChannel = 'jetstream'): Arrival => ({ message: inspectRawMessage(bytes), channel });
  const receiptsOf = async (emailId: string) =>
    (await admin.query(`SELECT channel, status FROM ingest.email_receipts WHERE email_id = $1 ORDER BY id`, [emailId])).rows;
  const copiesOf = async (bytes: Buffer) => Number((await admin.query(`SELECT count(*) FROM ingest.emails WHERE raw = $1`, [bytes])).rows[0].count);

  it('given new messages, a copy of a stored one and two copies of one message, when stored together: one row per content and a receipt per arrival', async () => {
    const [fresh, earlier, twice] = [rawMessage(), rawMessage(), rawMessage()];
    const [stored] = await emails.storeAll([arrival(earlier, 'bus')]);
    const receipts = await emails.storeAll([arrival(fresh), arrival(earlier), arrival(twice), arrival(twice, 'bus')]);

    expect(receipts.map(({ status, stored: handedBack }) => [status, handedBack !== undefined])).toEqual([
      ['accepted', true],
      ['duplicate', false],
      ['accepted', true],
      ['duplicate', false],
    ]);
    expect(receipts[1].id).toBe(stored.id);
    expect(receipts[3].id).toBe(receipts[2].id);
    expect(receipts[0].stored!.raw.equals(fresh)).toBe(true);
    expect(await Promise.all([fresh, earlier, twice].map(copiesOf))).toEqual([1, 1, 1]);
    expect(await receiptsOf(stored.id)).toEqual([
      { channel: 'bus', status: 'accepted' },
      { channel: 'jetstream', status: 'duplicate' },
    ]);
    expect(await receiptsOf(receipts[2].id)).toEqual([
      { channel: 'jetstream', status: 'accepted' },
      { channel: 'bus', status: 'duplicate' },
    ]);
  });

  it('given arrivals larger together than one statement carries, when stored: each is stored, in statements of their own', async () => {
    const big = Array.from({ length: 3 }, (_, i) => rawMessage(String(i).repeat(3 * 1024 * 1024)));
    const receipts = await emails.storeAll(big.map((bytes) => arrival(bytes)));
    expect(receipts.map((receipt) => receipt.status)).toEqual(['accepted', 'accepted', 'accepted']);
    const { rows } = await admin.query(`SELECT count(DISTINCT xmin::text) AS transactions FROM ingest.emails WHERE id = ANY($1)`, [receipts.map((r) => r.id)]);
    expect(Number(rows[0].transactions)).toBe(3);
  });
});
