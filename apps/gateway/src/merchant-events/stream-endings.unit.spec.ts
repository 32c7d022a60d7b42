import { expectedEnding, KeyNoLongerValid } from './stream-endings';
import { StalledReaderError } from './write-when-ready';

describe('the endings of an event stream round', () => {
  it('given a round that completes, then it answers no ending', async () => {
    expect(await expectedEnding(async () => undefined)).toBeUndefined();
  });

  it('given a round that meets a revoked key or a reader that stopped reading, then it answers that ending rather than failing', async () => {
    const revoked = new KeyNoLongerValid();
    expect(await expectedEnding(() => Promise.reject(revoked))).toBe(revoked);
    const stalled = new StalledReaderError(30_000);
    expect(await expectedEnding(() => Promise.reject(stalled))).toBe(stalled);
  });

  it('given a round whose look at the log fails, then it fails', async () => {
    await expect(expectedEnding(() => Promise.reject(new Error('No service is answering ledger.merchant-events.list.v1')))).rejects.toThrow('No service is answering');
  });
});
