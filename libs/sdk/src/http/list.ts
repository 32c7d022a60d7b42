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
    const page = await this.fetchPage(this.startingAfter, this.options);
    return { data: page.body, hasMore: page.headers.get('x-has-more') === 'true' };
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    let cursor = this.startingAfter;
    for (;;) {
      const page = await this.fetchPage(cursor, this.options);
      yield* page.body;
      if (page.headers.get('x-has-more') !== 'true' || page.body.length === 0) return;
      cursor = page.body[page.body.length - 1].id;
    }
  }

  /** Everything up to `max` items (default 10,000), as an array. */
  async toArray(max = 10_000): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) {
      if (items.length >= max) break;
      items.push(item);
    }
    return items;
  }
}
