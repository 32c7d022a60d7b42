/**
 * A path segment (a detail page's id) decoded; undefined when it is malformed (a stray or cut %-escape such as
 * `%E0%A4%A`): no record has such an id, so its page is not found. decodeURIComponent itself would throw while the
 * app renders, and React would take the whole app down with it.
 */
export function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
