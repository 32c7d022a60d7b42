import { existsSync } from 'node:fs';
import { JsonLogger } from '@pp/platform';
import { buildNotice } from '@pp/testing';
import { readNotice } from './notice-parser';
import { NoticeReader, noticeReaderScript } from './notice-reader';

/*
 * The service's way of reading e-mails: the compiled worker (dist/, built by
 * jest's global set-up) in worker threads under a deadline.
 */
describe('NoticeReader', () => {
  const logged: string[] = [];
  const logger = new JsonLogger('ingest-test', 'info', (line) => logged.push(line));
  let reader: NoticeReader;

  beforeAll(() => {
    // A notice takes milliseconds; the line bomb below keeps postal-mime busy for about two seconds on our
    // two-core machines (it took ten before the reading worker's ByteBlob), seven times this deadline.
    reader = new NoticeReader({ INGEST_PARSE_TIMEOUT_MS: 300, INGEST_PARSE_WORKERS: 2, INGEST_WORKER_IDLE_MS: 10_000 }, logger);
  });
  afterAll(() => reader.onModuleDestroy());

  it('runs the compiled worker script', () => {
    expect(noticeReaderScript()).toMatch(/dist\/apps\/ingest\/src\/parsing\/notice-reader\.worker\.js$/);
    expect(existsSync(noticeReaderScript())).toBe(true);
  });

  it('reads a notice exactly as the parser does inline', async () => {
    const raw = Buffer.from(buildNotice({ layout: 'html', language: 'fr', messageId: '<reader@payments.interac.ca>' }));
    const reading = await reader.read('em_reader0001', raw);
    expect(reading.parse).toMatchObject({ status: 'parsed', notice: { memo: 'PP-7K3M9Q', amount_cents: 2500 } });
    expect(reading).toEqual(await readNotice(raw));
  });

  it('records a message that overruns the deadline as parse_timeout, and keeps reading the next ones', async () => {
    // A million empty lines: the slowest MiB we found for postal-mime's line handling (the parser never sees the text).
    const bomb = Buffer.from(`From: a@b.example\nSubject: x\nContent-Type: text/plain\n\n${'\n'.repeat(1024 * 1024)}`);
    const genuine = Buffer.from(buildNotice());
    // The same e-mail asked for twice while it is being read (inline and by the sweeper) is read once.
    const [slow, again, fast] = await Promise.all([reader.read('em_bomb000001', bomb), reader.read('em_bomb000001', bomb), reader.read('em_genuine0001', genuine)]);
    expect(slow).toEqual({ facts: null, parse: expect.objectContaining({ status: 'rejected', reasons: ['parse_timeout'] }) });
    expect(again).toBe(slow);
    expect(fast.parse.status).toBe('parsed');
    expect(logged.filter((line) => line.includes('em_bomb000001') && line.includes('parse_timeout'))).toHaveLength(1);
    expect((await reader.read('em_genuine0002', genuine)).parse.status).toBe('parsed');
  });
});
