import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateMerchantCommand, UpdateMerchantCommand } from './merchants.commands';

/** The properties an update with `changes` is refused for. */
const refused = (changes: Record<string, unknown>) =>
  validateSync(plainToInstance(UpdateMerchantCommand, { merchant_id: 'mer_1', ...changes })).map((error) => error.property);

describe('merchant settings', () => {
  it.each(['payments@shop.example', 'Pay.Ments+ca@mail.shop-example.ca', "o'brien@shop.example"])('takes the deposit address %s', (address) => {
    expect(refused({ etransfer_email: address })).toEqual([]);
  });

  it.each([
    ['a Unicode local part, which Postgres and JavaScript lower-case differently', 'élise@shop.example'],
    ['a dotted capital I, lower-cased to two characters by one side only', 'İnfo@shop.example'],
    ['a quoted local part, which the ingest does not read', '"a b"@shop.example'],
    ['a domain without a dot', 'payments@localhost'],
    ['two dots in a row', 'pay..ments@shop.example'],
    ['no address at all', 'not an address'],
  ])('refuses a deposit address with %s', (_case, address) => {
    expect(refused({ etransfer_email: address })).toEqual(['etransfer_email']);
  });

  it('takes null for a deposit address (clears it)', () => {
    expect(refused({ etransfer_email: null })).toEqual([]);
  });

  it.each([['https://shop.example.com'], ['https://*.example.com'], ['https://shop.example.com:8443'], ['http://localhost:3000'], ['https://localhost']])(
    'takes the frame ancestor %s',
    (origin) => expect(refused({ frame_ancestors: [origin] })).toEqual([]),
  );

  it.each([
    ['a wildcard over a whole top-level domain', 'https://*.com'],
    ['plain http to another host', 'http://shop.example.com'],
    ['a single-label host', 'https://intranet'],
    ['a path', 'https://shop.example.com/checkout'],
    ['something that would break out of the CSP header', "https://shop.example.com; script-src 'unsafe-inline'"],
  ])('refuses a frame ancestor with %s', (_case, origin) => {
    expect(refused({ frame_ancestors: [origin] })).toEqual(['frame_ancestors']);
  });

  describe('a merchant name, as payers read it on the checkout page', () => {
    const nameRefused = (name: string) =>
      validateSync(plainToInstance(CreateMerchantCommand, { name, email: 'owner@shop.example' })).map((error) => error.property);

    it('takes letters of any script, punctuation and spaces', () => {
      expect(nameRefused('Café Bélanger & Fils — Montréal')).toEqual([]);
    });

    it.each([
      ['blank', '   '],
      ['only joiners, which show nothing', '\u200D\u200C'],
      ['a right-to-left override, which shows the name reversed', 'Shop\u202Egnikab'],
      ['a zero-width space', 'Sho\u200Bp'],
      ['a control character', 'Shop\u0007'],
      ['a line break', 'Shop\nInc'],
      ['half a surrogate pair', 'Shop\uD83D'],
    ])('refuses one that is %s', (_case, name) => {
      expect(nameRefused(name)).toEqual(['name']);
      expect(refused({ name })).toEqual(['name']);
    });

    it('takes a new name in an update, where unknown properties are refused (as the dashboard parses it)', () => {
      const update = plainToInstance(UpdateMerchantCommand, { merchant_id: 'mer_1', name: 'Café Bélanger & Fils' });
      expect(validateSync(update, { whitelist: true, forbidNonWhitelisted: true })).toEqual([]);
    });
  });
});
