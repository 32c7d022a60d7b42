import 'reflect-metadata';
import * as contracts from '@pp/contracts';
import { AppendMetadata, AppendRequest, EventBody } from '@pp/contracts';
import { plainToInstance, Transform, Type } from 'class-transformer';
import { getMetadataStorage, IsInt, IsString, ValidateNested, type ValidationError, validateSync } from 'class-validator';
import { adoptAsInstance } from './adopt-as-instance';

class Leaf {
  @IsString()
  name!: string;
}

class Grid {
  @ValidateNested({ each: true })
  @Type(() => Leaf)
  rows!: Leaf[][];
}

class Trimmed {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  note!: string;
}

class WithDefault {
  @IsInt()
  attempts = 3;
}

class Dated {
  @Type(() => Date)
  at!: Date;
}

const append = () => ({
  stream_id: 'checkout_session-abc',
  expected_version: 0,
  events: [{ type: 'checkout_session.created', schema_version: 1, data: { amount: 2500, nested: { a: [1, 2] } } }],
  metadata: { merchant_id: 'mer_1', livemode: false },
});

/** What class-validator reports, as plain data: the property, its constraints and its children's. */
const report = (errors: ValidationError[]): unknown =>
  errors.map((error) => ({ property: error.property, constraints: error.constraints, children: report(error.children ?? []) }));

describe('adoptAsInstance', () => {
  it('given parsed JSON for a class whose nested classes are named by @Type, then the object itself becomes the instance, and so do its nested objects', () => {
    const value = append();
    const instance = adoptAsInstance(AppendRequest, value);
    expect(instance).toBe(value);
    expect(instance).toBeInstanceOf(AppendRequest);
    expect(instance.events[0]).toBeInstanceOf(EventBody);
    expect(instance.metadata).toBeInstanceOf(AppendMetadata);
    expect(instance).toEqual(plainToInstance(AppendRequest, append()));
  });

  it('given arrays of arrays under a @Type, then the objects at every depth become instances, as class-transformer maps them', () => {
    const instance = adoptAsInstance(Grid, { rows: [[{ name: 'a' }], [{ name: 'b' }, 'not an object']] });
    expect(instance.rows[0][0]).toBeInstanceOf(Leaf);
    expect(instance.rows[1][0]).toBeInstanceOf(Leaf);
    expect(instance.rows[1][1]).toBe('not an object');
  });

  it('given a nested property that is not an object, then it is left as it is, for validation to refuse', () => {
    const instance = adoptAsInstance(AppendRequest, { ...append(), metadata: 'nope' });
    expect(instance.metadata).toBe('nope');
    expect(report(validateSync(instance, { whitelist: true }))).toEqual(report(validateSync(plainToInstance(AppendRequest, { ...append(), metadata: 'nope' }), { whitelist: true })));
  });

  it.each([
    ['a @Transform', Trimmed, { note: '  hi  ' }, { note: 'hi' }],
    ['a field initializer', WithDefault, {}, { attempts: 3 }],
    ['a @Type that converts rather than instantiates', Dated, { at: '2026-11-26T07:00:00.000Z' }, { at: new Date('2026-11-26T07:00:00.000Z') }],
  ])('given a class with %s, then it takes plainToInstance’s path and gets its answer', (_case, type, value, expected) => {
    const instance = adoptAsInstance(type as new () => object, value);
    expect(instance).not.toBe(value);
    expect(instance).toBeInstanceOf(type);
    expect(instance).toEqual(expected);
  });

  it('given a value that is not a plain object, then it takes plainToInstance’s path', () => {
    const value = [append()];
    expect(adoptAsInstance(AppendRequest, value)).toEqual(plainToInstance(AppendRequest, [append()]));
    expect(adoptAsInstance(AppendRequest, undefined)).toBeInstanceOf(AppendRequest);
  });

  describe('given every validated class of the contracts', () => {
    const validated = Object.entries(contracts).filter(
      ([, value]) => typeof value === 'function' && getMetadataStorage().getTargetValidationMetadatas(value, '', true, false).length > 0,
    ) as Array<[string, new () => object]>;

    it('then there are classes to check', () => {
      expect(validated.length).toBeGreaterThan(50);
    });

    it.each([
      ['an empty object', () => ({})],
      ['every field an empty object', (keys: string[]) => Object.fromEntries(keys.map((key) => [key, {}]))],
      ['every field a list of one empty object', (keys: string[]) => Object.fromEntries(keys.map((key) => [key, [{}]]))],
      ['every field a string', (keys: string[]) => Object.fromEntries(keys.map((key) => [key, ' x ']))],
    ])('when given %s, then validation reports what it reports for plainToInstance’s copy', (_case, payload) => {
      for (const [, type] of validated) {
        const keys = getMetadataStorage()
          .getTargetValidationMetadatas(type, '', true, false)
          .map((metadata) => metadata.propertyName);
        const adopted = validateSync(adoptAsInstance(type, payload(keys)), { whitelist: true });
        const copied = validateSync(plainToInstance(type, payload(keys)), { whitelist: true });
        expect({ type: type.name, report: report(adopted) }).toEqual({ type: type.name, report: report(copied) });
      }
    });
  });
});
