/** More than any password the admin routes take (256 characters of up to 4 bytes): reading stops there. */
const MAX_LINE_BYTES = 4096;

/**
 * The first line of `input` (--password-stdin): up to its line break (LF or CRLF, not kept) or the end of the
 * stream, whatever else the line holds (spaces included). Reads no further than the first line break, so a
 * terminal is not waited on past it. Undefined when the stream ends before any character.
 */
export async function readPasswordLine(input: AsyncIterable<Buffer | string>): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(bytes);
    length += bytes.length;
    if (bytes.includes(0x0a) || length > MAX_LINE_BYTES) break;
  }
  const [line] = Buffer.concat(chunks).toString('utf8').split('\n');
  const password = line.endsWith('\r') ? line.slice(0, -1) : line;
  return password === '' ? undefined : password;
}
