import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateCheckoutSessionBody } from './checkout-sessions/create-checkout-session.body';
import { HTTP_URL_PATTERN } from './http-url';
import { CreateWebhookEndpointCommand } from './webhooks/webhook-endpoint.commands';

describe('HTTP_URL_PATTERN', () => {
  it.each([
    'https://shop.example',
    'https://shop.example/thanks?order=1#top',
    'http://localhost:3000/done',
    'HTTPS://SHOP.EXAMPLE:8443',
    'https://shop.example?x=1',
  ])('takes %s', (url) => expect(HTTP_URL_PATTERN.test(url)).toBe(true));

  it.each([
    'javascript:alert(1)',
    'ftp://shop.example',
    'https://',
    'https:///path',
    'https://shop .example',
    'https://shop.example/a b',
    'https://shop.example/ ',
    '//shop.example',
  ])('refuses %s', (url) => expect(HTTP_URL_PATTERN.test(url)).toBe(false));
});

describe('given a URL field of almost a megabyte that ends in a space (one request under the body limit)', () => {
  // The earlier pattern tried every split of the host and the rest: about 7 s for this value, minutes for a megabyte.
  const hostile = `http://${'a'.repeat(100_000)} `;
  const refusedWithin = (validate: () => string[]) => {
    const started = process.hrtime.bigint();
    const failed = validate();
    return { failed, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  };

  it('refuses a checkout session whose success_url it is in one pass', () => {
    const body = plainToInstance(CreateCheckoutSessionBody, {
      amount: 100,
      currency: 'cad',
      reference: 'r',
      success_url: hostile,
      cancel_url: 'https://shop.example',
    });
    const { failed, ms } = refusedWithin(() => validateSync(body).map((error) => error.property));
    expect(failed).toEqual(['success_url']);
    expect(ms).toBeLessThan(1_000);
  });

  it('refuses a webhook endpoint whose url it is in one pass', () => {
    const command = plainToInstance(CreateWebhookEndpointCommand, { url: hostile });
    const { failed, ms } = refusedWithin(() => validateSync(command).map((error) => error.property));
    expect(failed).toContain('url');
    expect(ms).toBeLessThan(1_000);
  });
});
