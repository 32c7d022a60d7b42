import { UnexpectedResponseError } from '../errors';
import { ListIterator } from './list';
import type { ApiResponse } from './transport';

/** A list whose pages the test gives, recording each cursor asked for. */
function listOf(...pages: Array<{ body: unknown; more: boolean }>) {
  const cursors: Array<string | undefined> = [];
  const iterator = new ListIterator<{ id: string }>(
    async (cursor) => {
      const page = pages[Math.min(cursors.push(cursor) - 1, pages.length - 1)];
      return { status: 200, headers: new Headers({ 'x-has-more': String(page.more) }), body: page.body, requestId: 'req_1' } as ApiResponse<Array<{ id: string }>>;
    },
    undefined,
    {},
  );
  return { iterator, cursors };
}

describe('a paged list', () => {
  it('given pages of items, when iterated, then it continues after each page’s last id until the gateway says no more', async () => {
    const { iterator, cursors } = listOf({ body: [{ id: 'a' }, { id: 'b' }], more: true }, { body: [{ id: 'c' }], more: false });
    expect((await iterator.toArray()).map((item) => item.id)).toEqual(['a', 'b', 'c']);
    expect(cursors).toEqual([undefined, 'b']);
  });

  it('given max items ending on a page boundary, when collected with toArray(max), then the next page is not fetched', async () => {
    const { iterator, cursors } = listOf({ body: [{ id: 'a' }, { id: 'b' }], more: true }, { body: [{ id: 'c' }], more: false });
    expect((await iterator.toArray(2)).map((item) => item.id)).toEqual(['a', 'b']);
    expect(cursors).toEqual([undefined]);
  });

  it('given max zero, when collected with toArray, then nothing is fetched', async () => {
    const { iterator, cursors } = listOf({ body: [{ id: 'a' }], more: false });
    expect(await iterator.toArray(0)).toEqual([]);
    expect(cursors).toHaveLength(0);
  });

  it.each([
    ['a string', '"txn_1"'],
    ['an object', { data: [] }],
    ['nothing', undefined],
  ])('given a page that is %s, not a list, when read, then it is an UnexpectedResponseError, not its characters', async (_what, body) => {
    await expect(listOf({ body, more: false }).iterator.toArray()).rejects.toThrow(UnexpectedResponseError);
    await expect(listOf({ body, more: false }).iterator.firstPage()).rejects.toThrow(/a list page is not a list \(request req_1\)/);
  });

  it.each([
    ['no id', [{ id: 'a' }, { name: 'b' }]],
    ['an id that is not a string', [{ id: 7 }]],
    ['a null item', [null]],
    ['the same id again', [{ id: 'a' }]],
  ])('given a page saying there is more whose last item has %s, when iterated, then it fails instead of reading the same pages for ever', async (_what, body) => {
    const { iterator, cursors } = listOf({ body: [{ id: 'a' }], more: true }, { body, more: true });
    await expect(iterator.toArray()).rejects.toThrow(/last item has no new id to continue after/);
    expect(cursors).toEqual([undefined, 'a']);
  });

  it('given pages that lead back to a cursor from further back (a → b → a), when iterated, then it fails on the repeat instead of cycling', async () => {
    const cursors: Array<string | undefined> = [];
    const cycle = ['a', 'b', 'c'];
    const iterator = new ListIterator<{ id: string }>(
      async (cursor) => {
        const id = cycle[(cursors.push(cursor) - 1) % cycle.length];
        return { status: 200, headers: new Headers({ 'x-has-more': 'true' }), body: [{ id }], requestId: 'req_1' } as ApiResponse<Array<{ id: string }>>;
      },
      undefined,
      {},
    );
    await expect(iterator.toArray()).rejects.toThrow(/last item has no new id to continue after \(a came before: the list would repeat for ever\) \(request req_1\)/);
    expect(cursors).toEqual([undefined, 'a', 'b', 'c']);
  });

  it('given a starting_after that a later page leads back to, when iterated, then that is a repeat too', async () => {
    const iterator = new ListIterator<{ id: string }>(
      async () => ({ status: 200, headers: new Headers({ 'x-has-more': 'true' }), body: [{ id: 'start' }], requestId: 'req_1' }) as ApiResponse<Array<{ id: string }>>,
      'start',
      {},
    );
    await expect(iterator.toArray()).rejects.toThrow(UnexpectedResponseError);
    await expect(iterator.firstPage()).rejects.toMatchObject({ requestId: 'req_1' });
  });
});
