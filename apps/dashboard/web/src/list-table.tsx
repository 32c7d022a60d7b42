import type { HTMLAttributes, ReactNode } from 'react';
import { useI18n } from './i18n';
import { type Location, navigate, withParams } from './router';
import { type Loaded, States } from './ui';

/** One column: its header (hidden text for action columns) and what each row shows in it. */
export interface Column<Row> {
  header: string;
  hideHeader?: boolean;
  className?: string;
  cell: (row: Row) => ReactNode;
}

/**
 * Cursor paging in the URL: back to the first page, or on after the last row shown. Past the first page it is drawn
 * even when the page is empty (its rows released or gone since): "First page" is then the way back.
 */
export function Pager({ location, lastId, hasMore, label }: { location: Location; lastId?: string; hasMore: boolean; label?: string }) {
  const { t } = useI18n();
  const after = location.params.get('starting_after');
  if (!after && !hasMore) return null;
  return (
    <nav className="pager" aria-label={label ?? t.pages}>
      {after ? <button type="button" onClick={() => navigate(withParams(location, { starting_after: undefined }))}>{t.first}</button> : null}
      {hasMore && lastId ? <button type="button" onClick={() => navigate(withParams(location, { starting_after: lastId }))}>{t.next}</button> : null}
    </nav>
  );
}

/**
 * A list filter kept in the URL as `param`: choosing a value goes back to the
 * first page. With `allLabel`, an empty choice removes the parameter.
 */
export function UrlFilter({ location, param, value, options, label, id, allLabel, optionLabel = (option) => option, className }: {
  location: Location;
  param: string;
  value: string;
  options: readonly string[];
  label: string;
  id: string;
  allLabel?: string;
  optionLabel?: (option: string) => string;
  className?: string;
}) {
  return (
    <label className={className}>
      {label}
      <select id={id} value={value} onChange={(event) => navigate(withParams(location, { [param]: event.target.value || undefined, starting_after: undefined }))}>
        {allLabel !== undefined ? <option value="">{allLabel}</option> : null}
        {options.map((option) => (
          <option key={option} value={option}>{optionLabel(option)}</option>
        ))}
      </select>
    </label>
  );
}

/**
 * A list as a table, with its loading, error and empty states, and a pager
 * when `paging` names the location the cursor lives in. Every cell is
 * rendered by React as text or elements, never as HTML.
 */
export function ListTable<Data, Row extends { id: string }>({
  loaded,
  rows,
  columns,
  label,
  rowProps,
  paging,
}: {
  loaded: Loaded<Data>;
  rows: (data: Data) => Row[];
  columns: Column<Row>[];
  label: string;
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
  paging?: Paging<Data>;
}) {
  return (
    <ListStates loaded={loaded} rows={rows} paging={paging}>
      {(shown) => (
        <table aria-label={label}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th scope="col" key={column.header}>
                  {column.hideHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.id} {...rowProps?.(row)}>
                {columns.map((column) => (
                  <td key={column.header} className={column.className}>{column.cell(row)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </ListStates>
  );
}

/**
 * One page of an /api list (`{ data, has_more }`) in its loading, error and empty states, its rows drawn by
 * `children`, then its pager, named `label`.
 */
export function PageStates<Row extends { id: string }>({
  loaded,
  location,
  label,
  children,
}: {
  loaded: Loaded<{ data: Row[]; has_more: boolean }>;
  location: Location;
  label?: string;
  children: (rows: Row[]) => ReactNode;
}) {
  return (
    <ListStates loaded={loaded} rows={(page) => page.data} paging={{ location, hasMore: pageHasMore, label }}>
      {children}
    </ListStates>
  );
}

/** Where a list's cursor lives, whether a page has more after it, and the pager's name (Pages by default). */
interface Paging<Data> {
  location: Location;
  hasMore: (data: Data) => boolean;
  label?: string;
}

/**
 * A list's loading, error and empty states, its rows drawn by `children`, then its pager when it has `paging`,
 * also after the empty state, so a page found empty past the first (its rows gone meanwhile) still leads back to the first.
 */
function ListStates<Data, Row extends { id: string }>({
  loaded,
  rows,
  paging,
  children,
}: {
  loaded: Loaded<Data>;
  rows: (data: Data) => Row[];
  paging?: Paging<Data>;
  children: (rows: Row[]) => ReactNode;
}) {
  const pager = (data?: Data, shown: Row[] = []) =>
    paging ? <Pager location={paging.location} lastId={shown[shown.length - 1]?.id} hasMore={data !== undefined && paging.hasMore(data)} label={paging.label} /> : null;
  return (
    <States loaded={loaded} isEmpty={(data) => rows(data).length === 0} afterEmpty={pager()}>
      {(data) => {
        const shown = rows(data);
        return (
          <>
            {children(shown)}
            {pager(data, shown)}
          </>
        );
      }}
    </States>
  );
}

/** Whether a page of the /api lists has more after it. */
export const pageHasMore = (page: { has_more: boolean }): boolean => page.has_more;

/** A page of the app in the current mode (live carries over in the URL). */
export const inMode = (path: string, mode: string): string => (mode === 'live' ? `${path}?mode=live` : path);

/** A link inside the app: a real href (new tab, copy link), navigated on the client. */
export function AppLink({ to, children, className }: { to: string; children: ReactNode; className?: string }) {
  return (
    <a
      href={to}
      className={className}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
