import { escapeControls, escapeControlsInJson } from './terminal-text';

/** Where commands write: NDJSON for scripts (--json), else readable tables, on stdout; progress always goes to stderr. */
export interface Output {
  json: boolean;
  out: (line: string) => void;
  progress: (line: string) => void;
}

/**
 * Every line is escaped on its way to the terminal (terminal-text.ts): lines
 * such as `events tail`'s and the progress messages carry server strings
 * (ids, references, error messages). Escaping is idempotent, so what cell()
 * escaped already is unchanged.
 */
export function consoleOutput(json: boolean): Output {
  return {
    json,
    out: (line) => process.stdout.write(`${json ? escapeControlsInJson(line) : escapeControls(line)}\n`),
    progress: (line) => process.stderr.write(`${escapeControls(line)}\n`),
  };
}

/** One record: a JSON line, or `name  value` lines. */
export function printRecord(output: Output, record: object): void {
  if (output.json) return output.out(JSON.stringify(record));
  const entries = Object.entries(record);
  const width = Math.max(...entries.map(([name]) => escapeControls(name).length));
  for (const [name, value] of entries) output.out(`${escapeControls(name).padEnd(width)}  ${cell(value)}`);
}

/** Rows: JSON lines, or a table of the chosen columns. */
export function printRows<T extends object>(output: Output, rows: T[], columns: Array<keyof T & string>): void {
  if (output.json) {
    for (const row of rows) output.out(JSON.stringify(row));
    return;
  }
  if (rows.length === 0) return output.out('(none)');
  const cells = rows.map((row) => columns.map((column) => cell(row[column])));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i].length)));
  output.out(columns.map((column, i) => column.toUpperCase().padEnd(widths[i])).join('  ').trimEnd());
  for (const line of cells) output.out(line.map((value, i) => value.padEnd(widths[i])).join('  ').trimEnd());
}

/** Escaped here, not only by the sink, so the column widths are those of what is shown. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  return escapeControls(typeof value === 'object' ? JSON.stringify(value) : String(value));
}
