import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { dkimSign as DkimSign } from 'mailauth/lib/dkim/sign';

/** A DKIM key made for this test process only; its public half is served through INGEST_DNS_OVERRIDES. */
export interface TestDkimKey {
  domain: string;
  selector: string;
  privateKey: string;
  /** The TXT record a DNS server would publish: "v=DKIM1; k=rsa; p=...". */
  record: string;
  /** "<selector>._domainkey.<domain>" */
  name: string;
}

const keys = new Map<string, TestDkimKey>();

/** One RSA key per domain and selector, generated on first use and reused within the process. */
export function testDkimKey(domain = 'payments.interac.ca', selector = 'test2026'): TestDkimKey {
  const name = `${selector}._domainkey.${domain}`;
  let key = keys.get(name);
  if (!key) {
    const pair = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'der' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    key = { domain, selector, name, privateKey: pair.privateKey, record: `v=DKIM1; k=rsa; p=${pair.publicKey.toString('base64')}` };
    keys.set(name, key);
  }
  return key;
}

/** The resolver map for these keys, as INGEST_DNS_OVERRIDES holds it. */
export const dnsOverridesFor = (...dkimKeys: TestDkimKey[]): Record<string, string> =>
  Object.fromEntries(dkimKeys.map((key) => [key.name, key.record]));

/** Writes the overrides file for a service process and returns its path. */
export function writeDnsOverrides(...dkimKeys: TestDkimKey[]): string {
  const path = join(mkdtempSync(join(tmpdir(), 'pp-dkim-')), 'dns-overrides.json');
  writeFileSync(path, JSON.stringify(dnsOverridesFor(...dkimKeys)));
  return path;
}

export interface SignOptions {
  key?: TestDkimKey;
  /**
   * Header fields the signature covers; the default covers what a genuine
   * notice must have signed (docs/INGEST-FORMATS.md): From, To, Subject, Date,
   * Message-ID, Reply-To and the MIME headers.
   */
  headerList?: string[];
  /** Adds an l= tag (signs only this many body bytes). */
  maxBodyLength?: number;
  /** The t= tag's time; now when left out. */
  signTime?: Date;
}

/** A line feed without the carriage return before it. */
const BARE_LF = /(?<!\r)\n/g;

export const DEFAULT_SIGNED_HEADERS = ['from', 'to', 'subject', 'date', 'message-id', 'reply-to', 'mime-version', 'content-type', 'content-transfer-encoding'];

/** Prepends a DKIM-Signature to a raw message, as Interac's mail server would. */
export async function signEmail(raw: string, options: SignOptions = {}): Promise<string> {
  const key = options.key ?? testDkimKey();
  // Signing works on CRLF lines, and mailauth rewrites bare line feeds one line at a time: seconds for
  // the specs' multi-megabyte messages of short lines. Rewritten here in one pass, the signed bytes are the same.
  // Loaded on first use, not with @pp/testing: mailauth and its dependencies are some 100 modules,
  // which every spec importing @pp/testing would load through Jest's module registry.
  const { dkimSign } = await import('mailauth/lib/dkim/sign');
  const result = await dkimSign(raw.replace(BARE_LF, '\r\n'), {
    ...(options.signTime ? { signTime: options.signTime } : {}),
    signatureData: [
      {
        signingDomain: key.domain,
        selector: key.selector,
        privateKey: key.privateKey,
        canonicalization: 'relaxed/relaxed',
        headerList: options.headerList ?? DEFAULT_SIGNED_HEADERS,
        ...(options.maxBodyLength !== undefined ? { maxBodyLength: options.maxBodyLength } : {}),
      },
    ],
  } as Parameters<typeof DkimSign>[1]);
  if (!result.signatures) throw new Error(`signing failed: ${JSON.stringify(result.errors)}`);
  const eol = raw.includes('\r\n') ? '\r\n' : '\n';
  return result.signatures.replace(/\r\n/g, eol) + raw;
}
