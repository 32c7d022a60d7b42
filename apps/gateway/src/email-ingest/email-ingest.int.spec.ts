import { request } from 'node:http';
import { buildNotice, signEmail, TestStack, testDkimKey, writeDnsOverrides } from '@pp/testing';

/* POST /v1/internal/ingest-email as a mail pipeline uses it, against the real gateway and ingest service. */
describe('e-mail ingest over HTTP', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({
      services: ['gateway', 'ingest'],
      label: 'ingest-http',
      env: { INGEST_DNS_OVERRIDES: writeDnsOverrides(testDkimKey()) },
    });
  });
  afterAll(() => stack?.stop());

  const INGEST_BODY_LIMIT_BYTES = 5 * 1024 * 1024;

  /**
   * Posts like a mail relay. node:http rather than fetch: the gateway answers an oversized body
   * with 413 from its Content-Length, before reading it, and closes the connection. So a body
   * over the limit is announced and only its first bytes sent, then the answer is awaited: writing
   * the rest races the close (EPIPE, before or after the answer depending on the Node version).
   */
  const post = (body: Buffer | string, { token = stack.env.INGEST_TOKEN, type = 'message/rfc822' } = {}) =>
    new Promise<{ status: number; body: Record<string, string> }>((resolve, reject) => {
      const req = request(`${stack.url('gateway')}/v1/internal/ingest-email`, {
        method: 'POST',
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': type, 'content-length': Buffer.byteLength(body) },
      });
      let answered = false;
      req.on('response', (response) => {
        answered = true;
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, string> });
          req.destroy();
        });
      });
      req.on('error', (error) => {
        if (!answered) reject(error);
      });
      const bytes = Buffer.from(body);
      if (bytes.length > INGEST_BODY_LIMIT_BYTES) req.write(bytes.subarray(0, 64 * 1024));
      else req.end(bytes);
    });

  const notice = (n: number, spec: Parameters<typeof buildNotice>[0] = {}) =>
    signEmail(buildNotice({ messageId: `<http${n}.${stack.namespace}@payments.interac.ca>`, reference: `C1AH${stack.namespace.slice(1, 7)}${n}`, ...spec }));

  it('stores a notice (202 accepted) and recognises the same message again (202 duplicate, same id)', async () => {
    const raw = await notice(1);
    const first = await post(raw);
    expect(first).toEqual({ status: 202, body: { id: expect.stringMatching(/^em_/), status: 'accepted' } });
    const again = await post(raw);
    expect(again).toEqual({ status: 202, body: { id: first.body.id, status: 'duplicate' } });
  });

  it('carries messages larger than one NATS message through the blob bucket', async () => {
    const padding = 'x'.repeat(76) + '\r\n';
    const raw = (await notice(2)).replace(/\r?\n\r?\n/, (blank) => `${blank}${padding.repeat(Math.ceil(1_600_000 / padding.length))}`);
    expect(Buffer.byteLength(raw)).toBeGreaterThan(1_500_000);
    const result = await post(raw);
    expect(result).toEqual({ status: 202, body: { id: expect.stringMatching(/^em_/), status: 'accepted' } });
  });

  it('given blank lines and an mbox postmark in front of a notice (a mail pipeline’s), then it is stored as the notice alone', async () => {
    const raw = await notice(4);
    const result = await post(`\r\n\r\nFrom notify@payments.interac.ca Wed Aug 26 14:03:11 2026\r\n${raw}`);
    expect(result).toEqual({ status: 202, body: { id: expect.stringMatching(/^em_/), status: 'accepted' } });
    expect(await post(raw)).toEqual({ status: 202, body: { id: result.body.id, status: 'duplicate' } });
  });

  it.each([
    ['no token', { token: '' }, 401, 'Invalid or missing ingest token'],
    ['a wrong token', { token: 'not-the-ingest-token-at-all' }, 401, 'Invalid or missing ingest token'],
    ['JSON instead of a message', { type: 'application/json' }, 415, 'Unsupported Content-Type: send message/rfc822'],
  ])('refuses %s', async (_case, options, status, error) => {
    const result = await post(await notice(3), options);
    expect(result).toEqual({ status, body: { error } });
  });

  it('refuses what is not an RFC 822 message, and bodies over 5 MB', async () => {
    const garbage = await post('just some words without any header section');
    expect(garbage.status).toBe(400);
    expect(garbage.body.error).toMatch(/^Validation failed: the body must be a raw RFC 822 message/);
    const huge = await post(Buffer.alloc(5 * 1024 * 1024 + 1, 'a'));
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ error: 'Request body too large (limit 5 MB)' });
  });

  it('takes a message whatever charset its Content-Type names: the body is bytes, read as an e-mail', async () => {
    const result = await post(await notice(7), { type: 'message/rfc822; charset=us-ascii' });
    expect(result.status).toBe(202);
  });
});
