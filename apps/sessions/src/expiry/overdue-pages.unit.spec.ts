import type { OverdueCheckoutSession, OverdueSessionsCursor } from '@pp/contracts';
import { sweepOverduePages } from './overdue-pages';

/** Overdue sessions as the ledger lists them: by deadline, then id; `after` is where the last page ended. */
function ledgerOf(count: number) {
  const sessions: OverdueCheckoutSession[] = Array.from({ length: count }, (_, i) => ({
    session_id: `cs${String(i).padStart(4, '0')}`,
    merchant_id: 'mer_1',
    livemode: false,
    expires_at: new Date(Date.UTC(2026, 11, 6, 12, 0, Math.floor(i / 3))).toISOString(),
  }));
  const asked: Array<OverdueSessionsCursor | undefined> = [];
  const page = (size: number) => async (after: OverdueSessionsCursor | undefined) => {
    asked.push(after);
    const from = after ? sessions.findIndex((s) => (s.expires_at + s.session_id).localeCompare(after.expires_at + after.session_id) > 0) : 0;
    return from < 0 ? [] : sessions.slice(from, from + size);
  };
  return { sessions, asked, page };
}

describe('a sweep of overdue sessions, page by page', () => {
  it('given more sessions than a page, then each page starts after the last one’s deadline and id, and every session is expired once', async () => {
    const ledger = ledgerOf(25);
    const expired: string[] = [];
    const outcome = await sweepOverduePages(ledger.page(10), async (s) => (expired.push(s.session_id), true), { pageSize: 10, maxPages: 5 });
    expect(outcome).toEqual({ expired: 25, failed: 0 });
    expect(expired).toEqual(ledger.sessions.map((s) => s.session_id));
    expect(ledger.asked).toEqual([undefined, { expires_at: ledger.sessions[9].expires_at, session_id: 'cs0009' }, { expires_at: ledger.sessions[19].expires_at, session_id: 'cs0019' }]);
  });

  it('given a whole page of sessions that always fail, then the sessions after them are still expired', async () => {
    const ledger = ledgerOf(25);
    const broken = new Error('cannot expire');
    const outcome = await sweepOverduePages(ledger.page(10), async (s) => {
      if (Number(s.session_id.slice(2)) < 10) throw broken;
      return true;
    }, { pageSize: 10, maxPages: 5 });
    expect(outcome).toEqual({ expired: 15, failed: 10, firstError: broken });
  });

  it('given a ledger where every expiry fails (it is down), then the sweep stops after two such pages', async () => {
    const ledger = ledgerOf(100);
    const outcome = await sweepOverduePages(ledger.page(10), async () => {
      throw new Error('ledger down');
    }, { pageSize: 10, maxPages: 25 });
    expect(outcome.failed).toBe(20);
    expect(ledger.asked).toHaveLength(2);
  });

  it('given more sessions that always fail than two pages, then the sweep stops at them and the next starts after them; the one after that starts at the front again', async () => {
    const ledger = ledgerOf(45);
    const expired: string[] = [];
    const expire = async (s: OverdueCheckoutSession) => {
      if (Number(s.session_id.slice(2)) < 20) throw new Error('cannot expire');
      expired.push(s.session_id);
      return true;
    };
    const first = await sweepOverduePages(ledger.page(10), expire, { pageSize: 10, maxPages: 25 });
    expect(first).toMatchObject({ expired: 0, failed: 20, resumeAfter: { expires_at: ledger.sessions[19].expires_at, session_id: 'cs0019' } });

    const second = await sweepOverduePages(ledger.page(10), expire, { pageSize: 10, maxPages: 25 }, first.resumeAfter);
    expect(second).toEqual({ expired: 25, failed: 0 });
    expect(expired).toEqual(ledger.sessions.slice(20).map((s) => s.session_id));
    expect(second.resumeAfter).toBeUndefined();
  });

  it('given sessions an expiry finds already closed, then they are not counted as expired', async () => {
    const ledger = ledgerOf(4);
    expect(await sweepOverduePages(ledger.page(10), async (s) => s.session_id !== 'cs0002', { pageSize: 10, maxPages: 5 })).toEqual({ expired: 3, failed: 0 });
    expect(ledger.asked).toEqual([undefined]);
  });

  it('given a backlog past the pages a sweep may take, then it stops there for the next sweep', async () => {
    const ledger = ledgerOf(100);
    expect((await sweepOverduePages(ledger.page(10), async () => true, { pageSize: 10, maxPages: 3 })).expired).toBe(30);
  });
});
