import { PassThrough, Readable } from 'node:stream';
import { readPasswordLine } from './password-stdin';

describe('--password-stdin', () => {
  const from = (...chunks: string[]) => Readable.from(chunks.map((chunk) => Buffer.from(chunk)));

  it('takes the first line without its line break (LF or CRLF), spaces kept', async () => {
    expect(await readPasswordLine(from('correct horse battery\n'))).toBe('correct horse battery');
    expect(await readPasswordLine(from(' spaced  out password \r\nsecond line\n'))).toBe(' spaced  out password ');
    expect(await readPasswordLine(from('no line break at the end'))).toBe('no line break at the end');
    expect(await readPasswordLine(from('split ', 'over chunks\nrest'))).toBe('split over chunks');
  });

  it('answers undefined for an empty stream or an empty first line', async () => {
    expect(await readPasswordLine(from())).toBeUndefined();
    expect(await readPasswordLine(from('\nlater line\n'))).toBeUndefined();
  });

  it('stops at the first line break, without waiting for the end of the stream (a terminal)', async () => {
    const terminal = new PassThrough();
    terminal.write('typed password\n');
    expect(await readPasswordLine(terminal)).toBe('typed password');
  });
});
