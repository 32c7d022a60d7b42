import { UnexpectedResponseError } from '../errors';
import type { ApiResponse, RequestOptions } from './transport';

/**
 * A newest-first list as an async iterator: each page is fetched when the
 * previous one is used up, continuing after its last id (`starting_after`)
 * while the gateway answers X-Has-More: true. `firstPage()` fetches one page
 * only, for callers that page themselves.
 */
export class ListIterator<T extends { id: string }> implements AsyncIterable<T> {
  constructor(
    private readonly fetchPage: (startingAfter: string | undefined, options: RequestOptions) => Promise<ApiResponse<T[]>>,
    private readonly startingAfter: string | undefined,
    private readonly options: RequestOptions,
  ) {}

  async firstPage(): Promise<{ data: T[]; hasMore: boolean }> {
    const page = checkedPage(await this.fetchPage(this.startingAfter, this.options), new Set(this.startingAfter === undefined ? [] : [this.startingAfter]));
    return { data: page.items, hasMore: page.next !== undefined };
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let cursor = this.startingAfter;
    // Every cursor continued after so far: a list that leads back to any of them (not only the last) would loop for ever.
    const seen = new Set<string>(cursor === undefined ? [] : [cursor]);
    for (;;) {
      const page = checkedPage(await this.fetchPage(cursor, this.options), seen);
      yield* page.items;
      if (page.next === undefined) return;
      cursor = page.next;
      seen.add(cursor);
    }
  }

  /** Everything up to `max` items (default 10,000), as an array. */
  async toArray(max = 10_000): Promise<T[]> {
    const items: T[] = [];
    if (max <= 0) return items;
    // Stops on the max-th item: asking for one more would fetch the next page when max ends one.
    for await (const item of this) {
      if (items.push(item) >= max) break;
    }
    return items;
  }
}

/**
 * A page's items, and the id to continue after when there is more. Checked:
 * `yield*` over a body that is a string yields its characters, and a last
 * item without an id, or with one already continued after (`seen`: the
 * previous cursor, or any before it, a cycle), would fetch the same pages
 * forever.
 */
function checkedPage<T extends { id: string }>(page: ApiResponse<T[]>, seen: ReadonlySet<string>): { items: T[]; next?: string } {
  const where = `(request ${page.requestId ?? 'without id'})`;
  const unexpected = (message: string) => new UnexpectedResponseError(`${message} ${where}`, undefined, page.requestId);
  if (!Array.isArray(page.body)) throw unexpected('a list page is not a list');
  const items = page.body;
  if (page.headers.get('x-has-more') !== 'true' || items.length === 0) return { items };
  const next: unknown = (items[items.length - 1] as { id?: unknown } | null)?.id;
  if (typeof next !== 'string' || next === '') throw unexpected('a list page says there is more, but its last item has no new id to continue after');
  if (seen.has(next)) throw unexpected(`a list page says there is more, but its last item has no new id to continue after (${next} came before: the list would repeat for ever)`);
  return { items, next };
}
