// The members of mailauth's DKIM verifier class (not typed by the package) that dkim-verification.ts uses.
declare module 'mailauth/lib/dkim/dkim-verifier' {
  import type { Writable } from 'node:stream';
  import type { DKIMResult, DKIMVerifyOptions, DKIMVerifyResult } from 'mailauth';

  export class DkimVerifier extends Writable {
    constructor(options?: DKIMVerifyOptions);
    /** 'header' until the empty line that ends the header section, then 'body'. */
    state: 'header' | 'body';
    headerChunks: Buffer[];
    headerBytes: number;
    /** The last byte written, for the bare line feed rewrite. */
    lastByte: number | undefined;
    byteLength: number;
    headers: DKIMVerifyResult['headers'] | false;
    headerFrom: string[];
    fromFields: number;
    envelopeFrom: string | false;
    results: DKIMResult[];
    writeAsync(chunk: Buffer | string, encoding?: BufferEncoding): Promise<void>;
    processChunk(chunk: Buffer): Promise<void>;
    emitHeaders(chunk?: Buffer): Promise<void>;
    /** Takes the parsed header section: finds the signatures, prepares a body hash for each, then fetches their keys. */
    messageHeaders(headers: NonNullable<DKIMVerifyResult['headers']>): Promise<void>;
    nextChunk(chunk: Buffer): Promise<void>;
    finish(): Promise<void>;
  }
}
