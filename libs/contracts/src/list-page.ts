import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** A page of a newest-first list: `has_more` becomes the X-Has-More header. */
export interface ListPage<T> {
  data: T[];
  has_more: boolean;
}

/** `limit` arrives as a query-string text; a short run of digits becomes a number, anything else fails validation. */
export const toPageLimit = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,3}$/.test(value) ? Number(value) : value);

/** Page size of a list whose caller names no `limit`; the service serving the list applies it. */
export const DEFAULT_PAGE_LIMIT = 10;
/** Largest `limit` of the merchant-facing lists. */
export const MAX_PAGE_LIMIT = 50;
/** Largest `limit` of the platform admins' lists. */
export const MAX_ADMIN_PAGE_LIMIT = 100;

/**
 * An optional `limit` from 1 to `max`, read from query-string text. The
 * decorators are applied last to first, as TypeScript applies a stack of
 * them, so the messages come in the same order as when they are written out.
 */
export function PageLimit(max: number): PropertyDecorator {
  const stack = [IsOptional(), Transform(toPageLimit), IsInt(), Min(1), Max(max)];
  return (target, property) => {
    for (const decorator of [...stack].reverse()) decorator(target, property);
  };
}

/** `limit` of the merchant-facing lists (PRODUCT-RULES §4.3, §4.4): 1 to 50, default 10 where the list is served. */
export class PageLimitParams {
  @PageLimit(MAX_PAGE_LIMIT)
  limit?: number;
}

/** Rows read with `LIMIT limit + 1`, as a page: the extra row only tells that there is more. */
export const pageOf = <Row, View>(rows: Row[], limit: number, view: (row: Row) => View): ListPage<View> => ({
  data: rows.slice(0, limit).map(view),
  has_more: rows.length > limit,
});
