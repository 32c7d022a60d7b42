import 'reflect-metadata';
import { DomainError, ErrorCode } from '@pp/contracts';
import { getMetadataStorage, IsInt, IsString, MetadataStorage, registerDecorator, validateSync } from 'class-validator';
import { BusValidationPipe } from '../nats/bus-validation.pipe';
import { cacheValidationMetadata } from './validation-metadata-cache';

const uncached = (target: Function) => MetadataStorage.prototype.getTargetValidationMetadatas.call(getMetadataStorage(), target, '', false, false, []);

class Base {
  @IsString()
  name!: string;
}

class Derived extends Base {
  @IsInt()
  amount!: number;
}

const failing = (object: object) => validateSync(object, { whitelist: true }).map((error) => error.property).sort();

describe('cacheValidationMetadata', () => {
  beforeAll(() => {
    cacheValidationMetadata();
    cacheValidationMetadata(); // a second install changes nothing
  });

  it('given a class and its ancestor, when looked up twice, then both answers are the uncached answer, the same array', () => {
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Derived, '', false, false, []);
    expect(first).toEqual(uncached(Derived));
    expect(first.map((rule) => rule.propertyName).sort()).toEqual(['amount', 'name']);
    expect(storage.getTargetValidationMetadatas(Derived, '', false, false, [])).toBe(first);
  });

  it('given the cache, when objects are validated, then inherited and own rules still apply', () => {
    expect(failing(Object.assign(new Derived(), { name: 1, amount: 'x' }))).toEqual(['amount', 'name']);
    expect(failing(Object.assign(new Derived(), { name: 'a', amount: 3 }))).toEqual([]);
  });

  it('given different options, when looked up, then each has its own answer', () => {
    const storage = getMetadataStorage();
    const plain = storage.getTargetValidationMetadatas(Base, '', false, false, []);
    const grouped = storage.getTargetValidationMetadatas(Base, '', false, true, ['admin']);
    expect(plain).toHaveLength(1);
    expect(grouped).toEqual([]); // strict groups: the rule has no group named admin
  });

  it.each(['"x"', 'null'])('given a bus payload whose own `constructor` key is %s, when validated, then it is refused as invalid, not failed as internal', (value) => {
    const payload = JSON.parse(`{"name":"a","constructor":${value}}`) as unknown;
    expect(() => new BusValidationPipe().transform(payload, { type: 'body', metatype: Base })).toThrow(
      expect.objectContaining({ constructor: DomainError, code: ErrorCode.ValidationFailed }),
    );
  });

  it('given a cached answer, when a rule is registered later, then the next lookup includes it', () => {
    failing(Object.assign(new Base(), { name: 'a' })); // caches Base's answer
    registerDecorator({
      target: Base,
      propertyName: 'nickname',
      validator: { validate: (value: unknown) => value === undefined || typeof value === 'string' },
      options: { message: 'nickname must be text' },
    });
    expect(failing(Object.assign(new Base(), { name: 'a', nickname: 7 }))).toEqual(['nickname']);
    expect(getMetadataStorage().getTargetValidationMetadatas(Base, '', false, false, [])).toEqual(uncached(Base));
  });
});
