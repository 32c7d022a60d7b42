type BlobPart = string | ArrayBuffer | ArrayBufferView | ByteBlob;

const utf8 = new TextEncoder();
const utf8Text = new TextDecoder();

/**
 * A Blob that keeps its bytes in one array in the JavaScript heap. It has
 * what a reader of a Blob built in the same thread uses (size, type,
 * arrayBuffer, bytes, text, slice), not streams.
 *
 * postal-mime gathers each decoded MIME part line by line and joins the
 * lines with `new Blob(lines).arrayBuffer()`. Node's Blob copies the parts
 * into native memory and reads them back through an asynchronous stream:
 * for a 1.4 KB notice that was 230 of 400 µs of CPU per reading on Node 24
 * (docs/PERFORMANCE.md). The reading worker installs this one as its global
 * Blob (notice-reader.worker.ts); nothing else runs in that thread.
 */
export class ByteBlob {
  readonly type: string;
  private readonly content: Uint8Array;

  constructor(parts: readonly BlobPart[] = [], options: { type?: string } = {}) {
    const views = parts.map((part) => (part instanceof ByteBlob ? part.content : bytesOf(part)));
    let size = 0;
    for (const view of views) size += view.byteLength;
    this.content = new Uint8Array(size);
    let at = 0;
    for (const view of views) {
      this.content.set(view, at);
      at += view.byteLength;
    }
    this.type = normalizedType(options.type);
  }

  get size(): number {
    return this.content.byteLength;
  }

  get [Symbol.toStringTag](): string {
    return 'Blob';
  }

  /** A copy: the caller may keep and change it. */
  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.content.slice().buffer;
  }

  async bytes(): Promise<Uint8Array> {
    return this.content.slice();
  }

  async text(): Promise<string> {
    return utf8Text.decode(this.content);
  }

  slice(start = 0, end = this.size, type = ''): ByteBlob {
    const from = start < 0 ? Math.max(this.size + start, 0) : Math.min(start, this.size);
    const to = end < 0 ? Math.max(this.size + end, 0) : Math.min(end, this.size);
    return new ByteBlob([this.content.subarray(from, Math.max(from, to))], { type });
  }

  /** Makes ByteBlob the Blob of this thread. */
  static install(scope: { Blob: unknown } = globalThis): void {
    scope.Blob = ByteBlob;
  }
}

function bytesOf(part: Exclude<BlobPart, ByteBlob>): Uint8Array {
  if (typeof part === 'string') return utf8.encode(part);
  if (part instanceof ArrayBuffer) return new Uint8Array(part);
  if (ArrayBuffer.isView(part)) return new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
  return utf8.encode(String(part)); // as Blob does with any other value
}

/** The File API's rule: a type with a character outside U+0020-U+007E is no type; otherwise lower case. */
const normalizedType = (type: string | undefined): string => (type === undefined || /[^\x20-\x7e]/.test(type) ? '' : type.toLowerCase());
