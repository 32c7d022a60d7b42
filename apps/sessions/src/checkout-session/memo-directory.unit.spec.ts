import { type CheckoutSessionRef, DomainError, ErrorCode } from '@pp/contracts';
import type { BusClient } from '@pp/platform';
import { MemoDirectory, REMEMBERED_MEMOS } from './memo-directory';

/** The ledger's side of by-memo over fixed sessions, counting the questions asked. */
function ledgerWith(sessions: Record<string, CheckoutSessionRef>) {
  const asked: string[] = [];
  const bus = {
    request: async (_subject: string, { memo }: { memo: string }) => {
      asked.push(memo);
      if (!sessions[memo]) throw new DomainError(ErrorCode.NotFound, 'Checkout session not found');
      return sessions[memo];
    },
  };
  return { directory: new MemoDirectory(bus as unknown as BusClient), asked };
}

const ref = (session_id: string): CheckoutSessionRef => ({ session_id, merchant_id: 'mer_shop', livemode: true });

describe('MemoDirectory', () => {
  it('given a session this process created, when its memo is looked up, then it answers without asking the ledger', async () => {
    const { directory, asked } = ledgerWith({});
    directory.remember('PP-AAAAAA', ref('cs_a'));
    expect(await directory.sessionOf('PP-AAAAAA')).toEqual(ref('cs_a'));
    expect(asked).toEqual([]);
  });

  it('given a memo of another replica\'s session, when looked up twice, then the ledger is asked once', async () => {
    const { directory, asked } = ledgerWith({ 'PP-BBBBBB': ref('cs_b') });
    expect(await directory.sessionOf('PP-BBBBBB')).toEqual(ref('cs_b'));
    expect(await directory.sessionOf('PP-BBBBBB')).toEqual(ref('cs_b'));
    expect(asked).toEqual(['PP-BBBBBB']);
  });

  it('given a memo no session has, when looked up twice, then it is unknown both times and asked both times (its session may come later)', async () => {
    const { directory, asked } = ledgerWith({});
    expect(await directory.sessionOf('PP-ZZZZZZ')).toBeUndefined();
    expect(await directory.sessionOf('PP-ZZZZZZ')).toBeUndefined();
    expect(asked).toEqual(['PP-ZZZZZZ', 'PP-ZZZZZZ']);
  });

  it('given more memos than it keeps, when one more is remembered, then the least recently used is forgotten and asked for again', async () => {
    const { directory, asked } = ledgerWith({ 'PP-000000': ref('cs_0') });
    for (let i = 0; i < REMEMBERED_MEMOS; i++) directory.remember(`PP-${String(i).padStart(6, '0')}`, ref(`cs_${i}`));
    await directory.sessionOf('PP-000001'); // used: now the most recent
    directory.remember('PP-NEWEST', ref('cs_new'));
    expect(await directory.sessionOf('PP-000001')).toEqual(ref('cs_1'));
    expect(await directory.sessionOf('PP-000000')).toEqual(ref('cs_0'));
    expect(asked).toEqual(['PP-000000']);
  });
});
