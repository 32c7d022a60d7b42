import { configProblems } from '@pp/testing';
import { CheckoutConfig } from './checkout.config';

const base = { NATS_URL: 'nats://checkout:p0d3b8e1f6a9c2e5b8d1f4a7c0e3b6d9@127.0.0.1:4222', SDK_URL: 'https://checkout.example.com' };
const problems = (checkoutUrlBase: string) => configProblems(CheckoutConfig, { ...base, CHECKOUT_URL_BASE: checkoutUrlBase });

describe('checkout configuration', () => {
  it('given an origin as CHECKOUT_URL_BASE, with or without its slash, then the app starts', () => {
    expect(problems('https://checkout.example.com')).toEqual([]);
    expect(problems('http://localhost:3001/')).toEqual([]);
  });

  it('given a base with a path, then the app refuses to start and says why: its pages, assets and status are served from the root', () => {
    for (const notAnOrigin of ['https://checkout.example.com?x', 'https://checkout.example.com#f', 'https://user:pw@checkout.example.com']) {
      expect(problems(notAnOrigin)).toHaveLength(1);
    }
    expect(problems('https://shop.example.com/pay')).toEqual([
      'CHECKOUT_URL_BASE is invalid: must be an http(s) origin with no path (the checkout app serves from /), e.g. https://checkout.example.com',
    ]);
  });
});
