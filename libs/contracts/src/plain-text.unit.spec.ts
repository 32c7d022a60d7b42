import 'reflect-metadata';
import { type ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CreateCheckoutSessionBody } from './checkout-sessions/create-checkout-session.body';
import { CreateMerchantCommand, ListMerchantsQuery, UpdateMerchantCommand } from './identity/merchants.commands';
import { AddTeamUserCommand } from './identity/team.commands';
import { ListPaymentsParams } from './payments/payments.subjects';
import { CreateWebhookEndpointCommand } from './webhooks/webhook-endpoint.commands';

/** The messages a body is refused with (none: taken). */
const refusals = <T extends object>(type: ClassConstructor<T>, body: Record<string, unknown>) =>
  validateSync(plainToInstance(type, body)).flatMap((error) => Object.values(error.constraints ?? {}));

const refused = (field: string) => [`${field} must not contain control or invisible formatting characters`];
const codePoint = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Controls (C0, DEL, C1), bidi overrides and isolates, and half a surrogate pair: refused in any text. */
const HIDDEN = ['\u0000', '\u0007', '\u001b', '\r', '\u007f', '\u0085', '\u202e', '\u2066', '\ud83d'];
/** One line: these too. */
const LINE_BREAKS = ['\n', '\t', '\u2028', '\u2029'];
/** Invisible, yet part of ordinary text (direction marks, soft hyphen, zero-width space, byte-order mark, a flag's tags): refused only in a name or an address. */
const INVISIBLE = ['\u200f', '\u00ad', '\u200b', '\ufeff', '\u{e0067}'];
const codePointOf = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

describe('one line of plain text', () => {
  const SCOPE = { merchant_id: 'mer_1', livemode: false };
  const FIELDS: Array<[ClassConstructor<object>, string, Record<string, unknown>]> = [
    [CreateCheckoutSessionBody, 'reference', { amount: 100, currency: 'cad', success_url: 'https://shop.example/ok', cancel_url: 'https://shop.example/no' }],
    [ListPaymentsParams, 'reference', {}],
    [CreateWebhookEndpointCommand, 'description', { ...SCOPE, url: 'https://shop.example/hooks' }],
    [ListMerchantsQuery, 'search', {}],
  ];
  const NAMES: Array<[ClassConstructor<object>, string, Record<string, unknown>]> = [
    [CreateMerchantCommand, 'name', { email: 'owner@shop.example' }],
    [UpdateMerchantCommand, 'name', { merchant_id: 'mer_1' }],
  ];
  const cases = [...FIELDS, ...NAMES].map(([type, field, rest]) => [type.name, field, type, rest] as const);
  const textCases = FIELDS.map(([type, field, rest]) => [type.name, field, type, rest] as const);
  const nameCases = NAMES.map(([type, field, rest]) => [type.name, field, type, rest] as const);

  it.each(cases)('%s takes a %s of any script, with joined emoji', (_name, field, type, rest) => {
    expect(refusals(type, { ...rest, [field]: 'Commande n° 42 — 返金 👍🏽 👩\u200d💻' })).toEqual([]);
  });

  it.each(cases.flatMap(([name, field, type, rest]) => [...HIDDEN, ...LINE_BREAKS].map((c) => [name, field, codePoint(c), type, rest, c] as const)))(
    '%s refuses a %s holding %s',
    (_name, field, _shown, type, rest, character) => {
      expect(refusals(type, { ...rest, [field]: `order${character}42` })).toEqual(refused(field));
    },
  );

  it.each(textCases.flatMap(([name, field, type, rest]) => INVISIBLE.map((c) => [name, field, codePointOf(c), type, rest, c] as const)))(
    '%s takes a %s holding %s, as text built from a customer’s name may',
    (_name, field, _shown, type, rest, character) => {
      expect(refusals(type, { ...rest, [field]: `order${character}42` })).toEqual([]);
    },
  );

  it.each(nameCases.flatMap(([name, field, type, rest]) => INVISIBLE.map((c) => [name, field, codePointOf(c), type, rest, c] as const)))(
    '%s refuses a %s holding %s: a name must not show as another',
    (_name, field, _shown, type, rest, character) => {
      expect(refusals(type, { ...rest, [field]: `Shop${character}42` })).toEqual(refused(field));
    },
  );

  it('refuses the same references at creation and in the payments search, so every reference made can be searched for', () => {
    const reference = 'order\u202e24';
    expect(refusals(CreateCheckoutSessionBody, { ...FIELDS[0][2], reference })).toEqual(refused('reference'));
    expect(refusals(ListPaymentsParams, { reference })).toEqual(refused('reference'));
  });
});

describe('an e-mail address a person signs in with', () => {
  const ADDRESSES: Array<[ClassConstructor<object>, Record<string, unknown>]> = [
    [CreateMerchantCommand, { name: 'Shop' }],
    [AddTeamUserCommand, { merchant_id: 'mer_1', role: 'viewer' }],
  ];
  const cases = ADDRESSES.map(([type, rest]) => [type.name, type, rest] as const);

  it.each(cases)('%s takes a Unicode address', (_name, type, rest) => {
    expect(refusals(type, { ...rest, email: 'élise@café.example' })).toEqual([]);
  });

  it.each(cases.flatMap(([name, type, rest]) => ['\u202e', '\u2066', '\u200b', '\ufeff', '\u200c', '\u200d'].map((c) => [name, codePoint(c), type, rest, c] as const)))(
    '%s refuses one whose local part holds %s, which an e-mail check alone takes',
    (_name, _shown, type, rest, character) => {
      expect(refusals(type, { ...rest, email: `own${character}er@shop.example` })).toEqual(['email must not contain control or invisible formatting characters']);
    },
  );

  it.each(cases)('%s refuses an accented letter written as a letter and a combining accent (another account on screen as élise@…)', (_name, type, rest) => {
    expect(refusals(type, { ...rest, email: 'e\u0301lise@shop.example' })).toEqual(['email must write accented letters composed (Unicode NFC), as a keyboard types them']);
    expect(refusals(type, { ...rest, email: '\u00e9lise@shop.example' })).toEqual([]);
  });
});
