import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TestStack } from '@pp/testing';

/**
 * Validates with @apidevtools/swagger-parser in a plain Node process: its
 * dependencies are ES modules, which Node loads and Jest's CommonJS runtime does not.
 */
/** The parts of the served document these tests read. */
interface ServedOperation {
  security?: unknown[];
  parameters?: unknown[];
  'x-required-scope'?: string;
  requestBody: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description?: string }>;
}
interface ServedDocument {
  openapi: string;
  paths: Record<string, Record<string, ServedOperation>>;
}

async function validateOpenApi(document: unknown): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'openapi-')), 'openapi.json');
  writeFileSync(file, JSON.stringify(document));
  const script = `require('@apidevtools/swagger-parser').validate(process.argv[1]).then(
    (api) => console.log('valid ' + api.openapi),
    (error) => { console.error(error.message); process.exit(1); })`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script, file], { cwd: join(__dirname, '..', '..', '..', '..') });
  return stdout.trim();
}

describe('API description', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'openapi' });
  });
  afterAll(() => stack?.stop());

  it('serves a valid OpenAPI 3 document of every /v1 route at GET /v1/openapi.json', async () => {
    const response = await fetch(`${stack.url('gateway')}/v1/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as ServedDocument;
    await expect(validateOpenApi(document)).resolves.toMatch(/^valid 3\./);
    expect(document.openapi).toMatch(/^3\./);
    // Routes keep arriving; every one must be documented, and none is ever undocumented by accident.
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining([
      '/v1/admin/keys/{key_id}',
      '/v1/admin/merchants',
      '/v1/admin/merchants/{id}',
      '/v1/admin/merchants/{id}/keys',
      '/v1/checkout/sessions',
      '/v1/checkout/sessions/{id}',
      '/v1/webhook_endpoints',
      '/v1/webhook_endpoints/{id}/rotate_secret',
      '/v1/webhook_endpoints/{id}/disable',
      '/v1/webhook_endpoints/{id}/enable',
      '/v1/internal/ingest-email',
    ]));
    for (const [path, operations] of Object.entries<Record<string, { security?: unknown[] }>>(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect([`${method} ${path}`, operation.security?.length ?? 0]).toEqual([`${method} ${path}`, 1]);
      }
    }
    const create = document.paths['/v1/checkout/sessions'].post;
    expect(create.security).toEqual([{ api_key: [] }]);
    expect(create['x-required-scope']).toBe('checkout.write');
    expect(create.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true })]));
    expect(create.requestBody.content['application/json'].schema).toMatchObject({
      required: expect.arrayContaining(['amount', 'currency', 'reference', 'success_url', 'cancel_url']),
      properties: { amount: { type: 'integer', minimum: 1 }, currency: { enum: ['cad'] }, reference: { maxLength: 255 } },
    });
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['200', '201', '400', '401', '403', '409', '429', '503']));
    expect(document.paths['/v1/admin/merchants'].post.security).toEqual([{ admin_token: [] }]);
    // Every scheme an operation names is defined; the mail pipeline's route says what it takes (no Idempotency-Key, raw e-mails to 5 MB).
    const schemes = Object.keys((document as unknown as { components: { securitySchemes: Record<string, unknown> } }).components.securitySchemes);
    expect(schemes.sort()).toEqual(['admin_token', 'api_key', 'ingest_token']);
    const ingest = document.paths['/v1/internal/ingest-email'].post;
    expect(ingest.security).toEqual([{ ingest_token: [] }]);
    expect((ingest.parameters as Array<{ name: string }>).map((parameter) => parameter.name)).not.toContain('Idempotency-Key');
    expect(ingest.responses['413'].description).toBe('Body over 5 MB');
    expect(ingest.responses['415'].description).toBe('Content-Type is not message/rfc822');
  });

  it('serves the reference page and its assets from this process at /docs', async () => {
    const page = await fetch(`${stack.url('gateway')}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//); // nothing from a CDN
      const loaded = await fetch(new URL(asset, `${stack.url('gateway')}/docs`));
      await loaded.arrayBuffer(); // read to its end: an unread body keeps the connection busy, and the gateway's stop waits for it
      expect({ asset, status: loaded.status }).toEqual({ asset, status: 200 });
    }
  });
});
