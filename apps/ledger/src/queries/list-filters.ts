/** One optional filter of a list: its condition over the placeholders it is given, and its value (undefined or null: not asked for). */
export interface ListFilter {
  /** One placeholder, or one per element of a `tuple` value, in order. */
  condition: (...placeholders: string[]) => string;
  value: unknown;
  /** The value is a tuple, each element its own placeholder: a keyset cursor of several columns, `(created_at, id) < ($n, $m)`. */
  tuple?: boolean;
}

/**
 * The conditions of the filters asked for, numbered from `$<first>`, and their values. A filter not asked for is left
 * out of the text rather than written `$n IS NULL OR …`: the services prepare their statements, and a prepared
 * statement's generic plan cannot tell which filters are given, so it would walk the merchant's listing index for a
 * rare status instead of using the index made for that filter. Each combination of filters is its own text, and so its
 * own prepared statement, planned for exactly those filters.
 */
export function listFilters(filters: readonly ListFilter[], first: number): { sql: string; values: unknown[] } {
  const values: unknown[] = [];
  let sql = '';
  for (const { condition, value, tuple } of filters) {
    if (value === undefined || value === null) continue;
    const given = tuple ? (value as readonly unknown[]) : [value];
    const placeholders = given.map((_, i) => `$${first + values.length + i}`);
    values.push(...given);
    sql += ` AND ${condition(...placeholders)}`;
  }
  return { sql, values };
}
