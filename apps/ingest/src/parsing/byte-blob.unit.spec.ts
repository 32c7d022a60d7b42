import fc from 'fast-check';
import { buildNotice, NOTICE_CORPUS } from '@pp/testing';
import { ByteBlob } from './byte-blob';
import { readNotice } from './notice-parser';

const NodeBlob = globalThis.Blob;

/** Parts of every kind a Blob takes: text (any code points, lone surrogates too), views into larger buffers, whole buffers. */
const part = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.tuple(fc.uint8Array({ maxLength: 40 }), fc.nat(), fc.nat()).map(([bytes, a, b]) => {
    const from = a % (bytes.length + 1);
    return bytes.subarray(from, from + (b % (bytes.length - from + 1)));
  }),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => bytes.slice().buffer),
);

async function contentOf(blob: { size: number; type: string; arrayBuffer(): Promise<ArrayBuffer>; text(): Promise<string> }) {
  return { size: blob.size, type: blob.type, bytes: [...new Uint8Array(await blob.arrayBuffer())], text: await blob.text() };
}

describe('ByteBlob', () => {
  it('holds the bytes, size and text that Node’s Blob holds for the same parts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 8 }), async (parts) => {
        expect(await contentOf(new ByteBlob(parts))).toEqual(await contentOf(new NodeBlob(parts)));
      }),
    );
  });

  it('slices as Node’s Blob does, from either end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 4 }), fc.integer({ min: -50, max: 50 }), fc.integer({ min: -50, max: 50 }), async (parts, start, end) => {
        expect(await contentOf(new ByteBlob(parts).slice(start, end, 'text/plain'))).toEqual(
          await contentOf(new NodeBlob(parts).slice(start, end, 'text/plain')),
        );
      }),
    );
  });

  it('takes a ByteBlob as a part, and normalizes its type as Node’s Blob does', async () => {
    const inner = new ByteBlob(['abc', new Uint8Array([0xe2, 0x82, 0xac])]);
    expect(await new ByteBlob([inner, 'd']).text()).toBe('abc€d');
    for (const type of ['Text/HTML', 'application/octet-stream', 'bad\u00e9type', undefined]) {
      expect(new ByteBlob([], { type }).type).toBe(new NodeBlob([], { type }).type);
    }
  });

  it('answers a copy, so a reader that changes it changes nothing for the next', async () => {
    const blob = new ByteBlob(['hello']);
    new Uint8Array(await blob.arrayBuffer()).fill(0);
    (await blob.bytes()).fill(0);
    expect(await blob.text()).toBe('hello');
    expect(Object.prototype.toString.call(blob)).toBe('[object Blob]');
  });

  it('leaves every notice reading as it is with Node’s Blob', async () => {
    const raws = [
      ...NOTICE_CORPUS.map((fixture) => buildNotice(fixture.spec)),
      buildNotice({ layout: 'html', language: 'fr' }),
      `From: a@b.example\nSubject: =?utf-8?B?w6l0w6k=?=\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\nw6l0w6kgUFAtN0szTTlR\n`,
      `From: a@b.example\nSubject: x\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nMontant : 25,00 $ =E9t=E9 PP-7K3M9Q=\n suite\n`,
    ].map((raw) => Buffer.from(raw));
    const readings = async () => Promise.all(raws.map((raw) => readNotice(raw)));
    const withNodeBlob = await readings();
    ByteBlob.install();
    try {
      expect(await readings()).toEqual(withNodeBlob);
    } finally {
      globalThis.Blob = NodeBlob;
    }
    expect(withNodeBlob.filter((reading) => reading.parse.status === 'parsed').length).toBeGreaterThan(NOTICE_CORPUS.length / 2);
  });
});
