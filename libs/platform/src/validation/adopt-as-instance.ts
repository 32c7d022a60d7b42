import { type ClassConstructor, plainToInstance, TransformationType } from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import { getMetadataStorage } from 'class-validator';

// The registry the decorators write to: the instance `class-transformer` (its main, cjs/index.js) reads.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage };

/** For each property declared with `@Type`, the class its value (or each item of its array) becomes, with that class's own plan. */
interface Plan {
  readonly nested: ReadonlyArray<{ readonly property: string; readonly type: ClassConstructor<object>; readonly plan: Plan }>;
}

/** What `@Type` may name that class-transformer converts rather than instantiates. */
const CONVERTED_TYPES: readonly unknown[] = [String, Number, Boolean, Date, Buffer, Map, Set, Array, Object, Promise];

const plans = new WeakMap<ClassConstructor<object>, Plan | null>();

/**
 * Turns parsed JSON into an instance of `type` for class-validator by giving
 * the object (and every object below it that a `@Type` names) its class's
 * prototype, where `plainToInstance` builds a copy of the whole tree: 4-5 % of
 * the CPU of the services answering bus requests (docs/PERFORMANCE.md).
 *
 * The result is what `plainToInstance` returns, minus the copy: the same
 * classes at the same places and the same values. Where the two could differ,
 * the class takes `plainToInstance`'s path: when it or a class below it has a
 * `@Transform`, `@Expose` or `@Exclude`, a field initializer (a default the copy
 * would start from) or a `@Type` that converts (String, Date, a discriminator),
 * and when `value` is not a plain object. `value` must be freshly parsed JSON
 * that nothing else holds, with its `__proto__` keys already removed.
 */
export function adoptAsInstance<T extends object>(type: ClassConstructor<T>, value: unknown): T {
  const plan = planOf(type);
  if (plan === null || !isPlainObject(value)) return plainToInstance(type, value ?? {}) as T;
  adopt(value, type, plan);
  return value as T;
}

function adopt(value: object, type: ClassConstructor<object>, plan: Plan): void {
  Object.setPrototypeOf(value, type.prototype);
  for (const nested of plan.nested) adoptBelow((value as Record<string, unknown>)[nested.property], nested.type, nested.plan);
}

/** A `@Type`'d property: an object becomes an instance; an array's objects do, at any depth, as class-transformer maps arrays. */
function adoptBelow(child: unknown, type: ClassConstructor<object>, plan: Plan): void {
  if (Array.isArray(child)) {
    for (const item of child) adoptBelow(item, type, plan);
  } else if (isPlainObject(child)) {
    adopt(child, type, plan);
  }
}

/** The class's plan, or null when only `plainToInstance` gives the right answer for it. Worked out once per class. */
function planOf(type: ClassConstructor<object>, visiting = new Set<ClassConstructor<object>>()): Plan | null {
  const known = plans.get(type);
  if (known !== undefined) return known;
  if (visiting.has(type)) return null; // a class that contains itself: left to plainToInstance
  visiting.add(type);
  const plan = workOutPlan(type, visiting);
  plans.set(type, plan);
  return plan;
}

function workOutPlan(type: ClassConstructor<object>, visiting: Set<ClassConstructor<object>>): Plan | null {
  const blank = blankInstance(type);
  if (blank === null) return null;
  if (defaultMetadataStorage.getExposedMetadatas(type).length > 0) return null;
  if (defaultMetadataStorage.getExcludedMetadatas(type).length > 0) return null;
  const nested: Array<Plan['nested'][number]> = [];
  for (const property of declaredProperties(type, blank)) {
    if (defaultMetadataStorage.findTransformMetadatas(type, property, TransformationType.PLAIN_TO_CLASS).length > 0) return null;
    const typeMetadata = defaultMetadataStorage.findTypeMetadata(type, property);
    if (!typeMetadata) continue;
    if (typeMetadata.options?.discriminator) return null;
    const nestedType = typeMetadata.typeFunction({ newObject: {}, object: {}, property }) as ClassConstructor<object>;
    if (typeof nestedType !== 'function' || CONVERTED_TYPES.includes(nestedType)) return null;
    const nestedPlan = planOf(nestedType, visiting);
    if (nestedPlan === null) return null;
    nested.push({ property, type: nestedType, plan: nestedPlan });
  }
  return { nested };
}

/** Every property a rule, a type or a transformation is declared on, in the class or its ancestors (whitelisting removes the rest). */
function declaredProperties(type: ClassConstructor<object>, blank: object): Set<string> {
  const validated = getMetadataStorage()
    .getTargetValidationMetadatas(type, '', true, false)
    .map((metadata) => metadata.propertyName);
  return new Set([...validated, ...Object.keys(blank)]);
}

/**
 * A new instance, when it holds nothing of its own (no field initializer gives the copy a value the JSON lacks);
 * null when it holds something or cannot be made without arguments.
 */
function blankInstance(type: ClassConstructor<object>): object | null {
  try {
    const blank = new type();
    return Object.values(blank).every((field) => field === undefined) ? blank : null;
  } catch {
    return null;
  }
}

const isPlainObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
