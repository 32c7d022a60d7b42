import type { DKIMVerifyOptions, DKIMVerifyResult } from 'mailauth';
import { DkimVerifier } from 'mailauth/lib/dkim/dkim-verifier';

const LF = 0x0a;
const CR = 0x0d;
/** No byte seen yet: compares unequal to every byte, as the library's `false` does. */
const NONE = -1;

/**
 * mailauth's DKIM verifier with its two per-byte loops replaced by linear
 * scans, and driven without a stream.
 *
 * The library finds the end of the header section byte by byte, keeping the
 * last four bytes in an array that it copies at every byte; it rewrites bare
 * line feeds to CRLF in a generator that looks at every byte and yields a
 * piece per line; and it is fed through a Writable. For a 1.4 KB notice that
 * was about 300 of 750 µs of CPU per message on Node 24
 * (docs/PERFORMANCE.md). Here the header scan jumps from line feed to line
 * feed with `indexOf`, keeping the two bytes before in numbers, and a chunk's
 * bare line feeds are rewritten in one copy. Everything else (header
 * parsing, canonicalization, body hashes, key lookup, signature checks) is
 * the library's.
 *
 * The library's parser gives the same result however its input is cut into
 * chunks (a stream may cut it anywhere), which is what lets a chunk go on
 * whole instead of line by line. Equivalence with `dkimVerify` and with the
 * library's own verifier fed the same chunks is checked on generated inputs
 * (dkim-verification.unit.spec.ts), so an upgrade of mailauth that changes
 * what these methods do fails there.
 */
export class LinearDkimVerifier extends DkimVerifier {
  /** The last two bytes of the header section seen so far (what the library's `stateBytes` is read for). */
  private previous = NONE;
  private beforePrevious = NONE;
  /** The message had more DKIM-Signature fields than `maxSignatures`: none was verified. */
  tooManySignatures = false;

  constructor(
    options: DKIMVerifyOptions,
    private readonly maxSignatures = Number.POSITIVE_INFINITY,
  ) {
    super(options);
  }

  /**
   * The library's messageHeaders, unless the header section has more
   * DKIM-Signature fields than `maxSignatures`: then it goes on without
   * them, so no body hash is prepared and no key looked up for any (the
   * newest ARC-Message-Signature, if there is one, is still checked as the
   * library checks it: one signature, whose answer nothing here reads). Counted
   * on the library's own parse (a field name folded before its colon, or a
   * first line with leading blanks, is a signature to it), so no spelling
   * the library verifies escapes the count.
   */
  override async messageHeaders(headers: NonNullable<DKIMVerifyResult['headers']>): Promise<void> {
    const signatures = headers.parsed.filter((header) => header.key === 'dkim-signature').length;
    if (signatures <= this.maxSignatures) return super.messageHeaders(headers);
    this.tooManySignatures = true;
    await super.messageHeaders({ ...headers, parsed: headers.parsed.filter((header) => header.key !== 'dkim-signature') });
  }

  /** The library's writeAsync: every bare line feed becomes CRLF, then the chunk is parsed. */
  override async writeAsync(chunk: Buffer | string, encoding?: BufferEncoding): Promise<void> {
    if (!chunk || !chunk.length) return;
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    const normalized = withCrlf(bytes, this.lastByte);
    this.lastByte = bytes[bytes.length - 1];
    await this.processChunk(normalized);
    this.byteLength += normalized.length;
  }

  /** The library's processChunk, for the non-empty CRLF chunks writeAsync hands it: the header section ends at the first empty line. */
  override async processChunk(chunk: Buffer): Promise<void> {
    if (this.state === 'header') {
      const end = this.headerEnd(chunk);
      if (end < 0) {
        this.headerChunks.push(chunk);
        return;
      }
      if (end === chunk.length) return this.emitHeaders(chunk);
      await this.emitHeaders(chunk.subarray(0, end));
      chunk = chunk.subarray(end);
    }
    await this.nextChunk(chunk);
  }

  /**
   * Where the header section ends in `chunk` (the index after its last
   * byte), or -1 when it goes on past it. Every line end is CRLF by now
   * (writeAsync), so the section ends at the first CRLF that begins it or
   * follows another: of the library's four conditions, the two left.
   */
  private headerEnd(chunk: Buffer): number {
    const seenBefore = this.headerBytes;
    for (let at = chunk.indexOf(LF); at >= 0; at = chunk.indexOf(LF, at + 1)) {
      const seen = seenBefore + at + 1;
      const twoBefore = at >= 2 ? chunk[at - 2] : at === 1 ? this.previous : this.beforePrevious;
      if (seen === 2 || twoBefore === LF) {
        this.headerBytes = seen;
        return at + 1;
      }
    }
    this.headerBytes = seenBefore + chunk.length;
    this.beforePrevious = chunk.length >= 2 ? chunk[chunk.length - 2] : this.previous;
    this.previous = chunk[chunk.length - 1];
    return -1;
  }
}

/** `chunk` with a CR before every line feed that has none (`before`: the byte ahead of the chunk); itself when there is none. */
function withCrlf(chunk: Buffer, before: number | undefined): Buffer {
  const isBare = (at: number) => (at === 0 ? before : chunk[at - 1]) !== CR;
  let bare = 0;
  for (let at = chunk.indexOf(LF); at >= 0; at = chunk.indexOf(LF, at + 1)) if (isBare(at)) bare++;
  if (bare === 0) return chunk;
  const out = Buffer.allocUnsafe(chunk.length + bare);
  let from = 0;
  let to = 0;
  for (let at = chunk.indexOf(LF); at >= 0; at = chunk.indexOf(LF, at + 1)) {
    if (!isBare(at)) continue;
    to += chunk.copy(out, to, from, at);
    out[to++] = CR;
    from = at;
  }
  chunk.copy(out, to, from);
  return out;
}

/**
 * mailauth's `dkimVerify(raw, options)`, at about half its CPU for a
 * notice-sized message. `headers` (the parsed header section, hidden there)
 * is a plain property here. With more DKIM-Signature fields than
 * `maxSignatures`, none is verified and `tooManySignatures` says so.
 */
export async function verifyDkim(raw: Uint8Array, options: DKIMVerifyOptions, maxSignatures?: number): Promise<DKIMVerifyResult & { tooManySignatures: boolean }> {
  const verifier = new LinearDkimVerifier(options, maxSignatures);
  await verifier.writeAsync(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)); // a view: nothing here writes to it
  await verifier.finish();
  return {
    headerFrom: verifier.headerFrom,
    fromFields: verifier.fromFields,
    envelopeFrom: verifier.envelopeFrom,
    results: verifier.results,
    headers: verifier.headers || undefined,
    tooManySignatures: verifier.tooManySignatures,
  };
}
