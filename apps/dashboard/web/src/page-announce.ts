import { useEffect, useRef } from 'react';

/** The window's title while the page is shown (page-route.policy.ts documentTitle): index.html's one name says nothing of the page. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/**
 * After a client-side navigation to another path, focus moves to the new page's h1 (focusable by script only,
 * tabIndex -1): a page load would have put a screen reader at the new page's start and said so, and a History API
 * navigation does neither, leaving focus on a link of the header. A change of the query only (a filter, the next
 * page, the mode) keeps focus on the control that made it; the first page shown keeps the browser's own start.
 */
export function useHeadingFocus(path: string): void {
  const shown = useRef(path);
  useEffect(() => {
    if (shown.current === path) return;
    shown.current = path;
    const heading = document.querySelector<HTMLElement>('main h1');
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus();
  }, [path]);
}
