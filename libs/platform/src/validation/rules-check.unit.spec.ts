import 'reflect-metadata';
import * as contracts from '@pp/contracts';
import { AppendRequest, CreateCheckoutSessionBody, CreateCheckoutSessionCommand } from '@pp/contracts';
import { plainToInstance, Type } from 'class-transformer';
import {
  getMetadataStorage,
  IsInt,
  IsOptional,
  IsString,
  registerDecorator,
  ValidateIf,
  ValidateNested,
  type ValidatorOptions,
  validateSync,
} from 'class-validator';
import { adoptAsInstance } from './adopt-as-instance';
import { satisfiesRules } from './rules-check';
import { cacheValidationMetadata } from './validation-metadata-cache';

// The type registry class-transformer's decorators write to (as in adopt-as-instance.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as {
  defaultMetadataStorage: { findTypeMetadata(target: unknown, property: string): { typeFunction(options?: unknown): unknown } | undefined };
};

const BUS: ValidatorOptions = { whitelist: true };
const EDGE: ValidatorOptions = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false, validationError: { target: false, value: true } };

class Leaf {
  @IsString()
  name!: string;
}

class Tree {
  @ValidateNested({ each: true })
  @Type(() => Leaf)
  leaves!: Leaf[];

  @IsOptional()
  @IsInt()
  size?: number | null;

  @ValidateIf((tree: Tree) => tree.size !== 0)
  @IsString()
  label?: string;
}

class Unruled {}

/** A rule whose answer is a promise, without being declared async: validateSync ignores it, `validate` awaits it. */
class Promising {
  @IsString()
  name!: string;
}
registerDecorator({ name: 'eventually', target: Promising, propertyName: 'name', validator: { validate: async () => false } });

const tree = (value: object): Tree => plainToInstance(Tree, value);

describe('satisfiesRules', () => {
  beforeAll(() => cacheValidationMetadata());

  it('given a valid instance with nested instances, then it passes, as class-validator finds nothing', () => {
    const value = tree({ leaves: [{ name: 'a' }, { name: 'b' }], size: 2, label: 'x' });
    expect(satisfiesRules(value, BUS, true)).toBe(true);
    expect(validateSync(value, BUS)).toEqual([]);
  });

  it('given a rule that fails at any depth, then it does not pass', () => {
    expect(satisfiesRules(tree({ leaves: [{ name: 'a' }, { name: 7 }] }), BUS, true)).toBe(false);
    expect(satisfiesRules(tree({ leaves: [{ name: 'a' }], size: 1.5 }), BUS, true)).toBe(false);
  });

  it('given a plain object where a nested class belongs, then it does not pass (class-validator: an unknown value)', () => {
    const value = tree({ leaves: [] });
    value.leaves = [{ name: 'a' }];
    expect(satisfiesRules(value, BUS, true)).toBe(false);
  });

  it('given an unknown property, then whitelisting strips it, or it does not pass where that is forbidden', () => {
    const stripped = tree({ leaves: [{ name: 'a', extra: 1 }], label: 'x', extra: 2 });
    expect(satisfiesRules(stripped, BUS, true)).toBe(true);
    expect(stripped).toEqual(tree({ leaves: [{ name: 'a' }], label: 'x' }));
    expect(satisfiesRules(tree({ leaves: [], label: 'x', extra: 2 }), EDGE, true)).toBe(false);
  });

  it('given @IsOptional and @ValidateIf, then a property they skip is not tested', () => {
    expect(satisfiesRules(tree({ leaves: [], size: null, label: 'x' }), BUS, true)).toBe(true);
    expect(satisfiesRules(tree({ leaves: [], size: 0, label: 42 }), BUS, true)).toBe(true);
    expect(satisfiesRules(tree({ leaves: [], size: 1, label: 42 }), BUS, true)).toBe(false);
  });

  it('given a class without rules, then it passes only where unknown values are allowed', () => {
    expect(satisfiesRules(new Unruled(), BUS, true)).toBe(false);
    expect(satisfiesRules(new Unruled(), EDGE, true)).toBe(true);
    expect(validateSync(new Unruled(), EDGE)).toEqual([]);
  });

  it('given what it cannot answer exactly (groups, a value that is not an object, a rule that answers a promise), then it leaves the answer to class-validator', () => {
    expect(satisfiesRules(tree({ leaves: [], label: 'x' }), { ...BUS, groups: ['a'] }, true)).toBe(false);
    expect(satisfiesRules('text', BUS, true)).toBe(false);
    expect(satisfiesRules(Object.assign(new Promising(), { name: 'a' }), BUS, true)).toBe(false);
  });

  describe('given payloads for every validated class of the contracts, built to pass and then broken one property at a time', () => {
    const classes = Object.values(contracts).filter(
      (value): value is new () => object => typeof value === 'function' && rulesOf(value).length > 0,
    );

    it.each([
      ['the bus (whitelist)', BUS],
      ['the edge (whitelist, forbidden extras, unknown values allowed)', EDGE],
    ])('when checked as %s, then it passes exactly when class-validator finds no error, and strips what it strips', (_case, options) => {
      const random = seeded(15);
      let passed = 0;
      let failed = 0;
      const classesPassing = new Set<string>();
      for (const type of classes) {
        for (const payload of payloadsFor(type, options, random)) {
          const checked = adoptAsInstance(type, structuredClone(payload));
          const validated = adoptAsInstance(type, structuredClone(payload));
          const passes = satisfiesRules(checked, options, true);
          const errors = validateSync(validated, options);
          expect({ type: type.name, payload, passes }).toEqual({ type: type.name, payload, passes: errors.length === 0 });
          if (passes) expect(checked).toEqual(validated);
          if (passes) classesPassing.add(type.name);
          if (passes) passed++;
          else failed++;
        }
      }
      // Both answers are well exercised: most classes get payloads that pass, and far more fail.
      expect(classes.length).toBeGreaterThan(50);
      expect(classesPassing.size).toBeGreaterThan(classes.length / 2);
      expect(passed).toBeGreaterThan(classes.length * 2);
      expect(failed).toBeGreaterThan(classes.length * 6);
    });

    it('then the hot payloads take the fast answer: a create body at the edge, its command and its append on the bus', () => {
      const body = {
        amount: 2500,
        currency: 'cad',
        reference: 'order-1',
        success_url: 'https://shop.example/ok',
        cancel_url: 'https://shop.example/no',
        metadata: { a: '1' },
      };
      expect(satisfiesRules(plainToInstance(CreateCheckoutSessionBody, body), EDGE, false)).toBe(true);
      const command = { merchant_id: 'mer_1', livemode: false, body, idempotency: { key: 'k', fingerprint: 'f' } };
      expect(satisfiesRules(adoptAsInstance(CreateCheckoutSessionCommand, command), BUS, true)).toBe(true);
      const append = {
        stream_id: 'checkout_session-abc',
        expected_version: 0,
        events: [{ type: 'checkout_session.created', schema_version: 1, data: { amount: 2500 } }],
        metadata: { merchant_id: 'mer_1', livemode: false },
        idempotency: { key: 'k', fingerprint: 'f' },
      };
      expect(satisfiesRules(adoptAsInstance(AppendRequest, append), BUS, true)).toBe(true);
    });
  });
});

function rulesOf(type: unknown) {
  return getMetadataStorage().getTargetValidationMetadatas(type as new () => object, '', false, false);
}

/** A small deterministic generator, so that a failure names a payload that can be made again. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const GENERIC_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  1.5,
  2500,
  '',
  ' x ',
  'x',
  'cad',
  'mer_1',
  'abc123',
  'checkout_session-abc',
  'checkout_session.created',
  'https://shop.example/ok',
  'payer@bank.example',
  'PP-ABC123',
  '2026-11-29T22:30:00.000Z',
  'dGVzdA==',
  'f'.repeat(64),
  'a'.repeat(300),
  {},
  { a: '1' },
  [],
  ['x'],
];

/** Values worth trying for a property: what its rules name (allowed values, bounds, lengths), its nested class, and common shapes. */
function candidatesFor(type: new () => object, property: string, depth: number, random: () => number): unknown[] {
  const named: unknown[] = [];
  for (const rule of rulesOf(type).filter((metadata) => metadata.propertyName === property)) {
    for (const constraint of (rule.constraints ?? []) as unknown[]) {
      if (Array.isArray(constraint)) named.push(...constraint);
      else if (typeof constraint === 'number') named.push(constraint, constraint + 1, constraint - 1, 'a'.repeat(Math.max(0, Math.min(constraint, 400))));
      else if (typeof constraint === 'string' || typeof constraint === 'boolean') named.push(constraint);
    }
  }
  const nested = defaultMetadataStorage.findTypeMetadata(type, property)?.typeFunction() as (new () => object) | undefined;
  if (typeof nested === 'function' && rulesOf(nested).length > 0 && depth < 3) {
    const item = buildPassing(nested, depth + 1, random, BUS);
    named.push(item, [item], [item, item]);
  }
  return [...named, ...named, ...GENERIC_VALUES];
}

const pick = <T>(values: readonly T[], random: () => number): T => values[Math.floor(random() * values.length)];

/** A payload built by trying values until class-validator is content, or for a few rounds. */
function buildPassing(type: new () => object, depth: number, random: () => number, options: ValidatorOptions): Record<string, unknown> {
  const properties = [...new Set(rulesOf(type).map((metadata) => metadata.propertyName))];
  const payload: Record<string, unknown> = {};
  for (const property of properties) payload[property] = pick(candidatesFor(type, property, depth, random), random);
  for (let round = 0; round < 40; round++) {
    const errors = validateSync(adoptAsInstance(type, structuredClone(payload)), options);
    if (errors.length === 0) break;
    for (const error of errors) {
      if (random() < 0.2) delete payload[error.property];
      else payload[error.property] = pick(candidatesFor(type, error.property, depth, random), random);
    }
  }
  return payload;
}

/** For one class: a payload built to pass, and copies of it with one property changed, removed or added. */
function payloadsFor(type: new () => object, options: ValidatorOptions, random: () => number): Array<Record<string, unknown>> {
  const base = buildPassing(type, 0, random, options);
  const properties = [...new Set(rulesOf(type).map((metadata) => metadata.propertyName))];
  const payloads = [base];
  for (const property of properties) {
    payloads.push({ ...base, [property]: pick(candidatesFor(type, property, 1, random), random) });
    payloads.push({ ...base, [property]: pick(candidatesFor(type, property, 1, random), random) });
    const without = { ...base };
    delete without[property];
    payloads.push(without);
  }
  payloads.push({ ...base, unexpected: 'x' }, { ...base, constructor: 'x' });
  return payloads;
}
