import { describeError } from './commands';
import { consoleOutput, type Output, printRecord, printRows } from './output';

/** A payer's From display name: clears the screen, sets the window title, reverses text, and breaks the row. */
const HOSTILE = 'Bob\x1b[2J\x1b]0;pwned\x07\u202eevil\u2066\tx\ny\x7f\x9b';
const SHOWN = 'Bob\\u{1b}[2J\\u{1b}]0;pwned\\u{7}\\u{202e}evil\\u{2066}\\u{9}x\\u{a}y\\u{7f}\\u{9b}';
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const captured = (json: boolean) => {
  const lines: string[] = [];
  const output: Output = { json, out: (line) => lines.push(line), progress: (line) => lines.push(line) };
  return { output, lines };
};

describe('printing server strings to a terminal', () => {
  afterEach(() => jest.restoreAllMocks());

  it('given a payment whose sender name holds control and bidi characters, when listed as a table, then they show as visible escapes and the columns stay aligned', () => {
    const { output, lines } = captured(false);
    printRows(output, [{ id: 'txn_1', sender_name: HOSTILE, amount: 2500 }, { id: 'txn_2', sender_name: 'Ann', amount: 100 }], ['id', 'sender_name', 'amount']);
    expect(lines).toHaveLength(3);
    expect(lines.some((line) => UNSAFE.test(line))).toBe(false);
    expect(lines[1]).toBe(`txn_1  ${SHOWN}  2500`);
    expect(lines[2].indexOf('100')).toBe(lines[1].indexOf('2500'));
  });

  it('given a record with hostile values and field names, when shown, then both are escaped, nested objects included', () => {
    const { output, lines } = captured(false);
    printRecord(output, { sender_name: HOSTILE, [`na\x1bme`]: { note: '\u202e\x9b' } });
    expect(lines.some((line) => UNSAFE.test(line))).toBe(false);
    expect(lines[0]).toBe(`sender_name  ${SHOWN}`);
    expect(lines[1]).toMatch(/^na\\u\{1b\}me +\{"note":"\\u\{202e\}\\u\{9b\}"\}$/);
  });

  it('given lines built from server strings (events tail, listen, progress), when written to the console, then stdout and stderr get them escaped', () => {
    const written: string[] = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    const terminal = consoleOutput(false);
    terminal.out(`2026-01-01T00:00:00Z  payment.confirmed  evt_1  ${HOSTILE}  2500`);
    terminal.progress(`! ${HOSTILE} (retrying)`);
    expect(written).toEqual([`2026-01-01T00:00:00Z  payment.confirmed  evt_1  ${SHOWN}  2500\n`, `! ${SHOWN} (retrying)\n`]);
  });

  it('given --json, when a record with DEL, C1 and bidi controls is written, then the line holds none raw and parses to the same value', () => {
    const written: string[] = [];
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => (written.push(String(chunk)), true));
    const record = { sender_name: HOSTILE };
    printRecord(consoleOutput(true), record);
    expect(written).toHaveLength(1);
    expect(UNSAFE.test(written[0].trimEnd())).toBe(false);
    expect(JSON.parse(written[0])).toEqual(record);
  });

  it('given an API error whose message holds an escape sequence, when described for stderr, then it is escaped', () => {
    expect(describeError(new Error('no such payment \x1b[2J'))).toBe('no such payment \\u{1b}[2J');
  });
});
