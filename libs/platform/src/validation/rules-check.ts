import { getMetadataStorage, type ValidationArguments, type ValidatorOptions } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Metadatas = ValidationMetadata[];

/** A rule's test, as class-validator runs it: the constraint class's `validate` with the rule's arguments. */
interface Test {
  readonly metadata: ValidationMetadata;
  readonly validate: (value: unknown, args: ValidationArguments) => unknown;
  readonly async: boolean;
}

/** What class-validator does for one property of a class (its `performValidations`), worked out once. */
interface PropertyPlan {
  readonly name: string;
  /** `@ValidateIf` and `@IsOptional`: the property is skipped unless every one holds. */
  readonly conditions: ReadonlyArray<(object: object, value: unknown) => boolean>;
  /** `@IsDefined`: tested even where the options skip missing properties. */
  readonly definedTests: readonly Test[];
  readonly tests: readonly Test[];
  /** `@ValidateNested`: the value (or each item of it) is validated against its own class. */
  readonly nested: boolean;
  /** `@ValidatePromise`: class-validator awaits a promise first; left to it. */
  readonly awaitsPromise: boolean;
}

interface ClassPlan {
  /** class-validator's own grouping, so that whitelisting asks exactly what it asks (see `isWhitelisted`). */
  readonly grouped: Record<string, Metadatas>;
  readonly properties: readonly PropertyPlan[];
  readonly hasRules: boolean;
}

/** The options this check answers for; any other set option leaves the answer to class-validator. */
type CheckedOptions = Pick<
  ValidatorOptions,
  'whitelist' | 'forbidNonWhitelisted' | 'forbidUnknownValues' | 'skipMissingProperties' | 'skipNullProperties' | 'skipUndefinedProperties'
>;
const CHECKED_OPTIONS = new Set<string>([
  'whitelist',
  'forbidNonWhitelisted',
  'forbidUnknownValues',
  'skipMissingProperties',
  'skipNullProperties',
  'skipUndefinedProperties',
  // Shape only the errors, which this check never builds.
  'validationError',
  'stopAtFirstError',
  'dismissDefaultMessages',
  'enableDebugMessages',
]);

const NESTED = 'nestedValidation';
const PROMISE = 'promiseValidation';
const CONDITIONAL = 'conditionalValidation';
const WHITELIST = 'whitelistValidation';
const IS_DEFINED = 'isDefined';
const CUSTOM = 'customValidation';

/** Plans by the metadata list class-validator answers for a class: a rule registered later makes a new list (validation-metadata-cache.ts), so a plan is never stale. */
const plans = new WeakMap<Metadatas, ClassPlan>();

/**
 * Whether class-validator would find no error in `object`: true only when
 * `validateSync(object, options)` (or, with `ignoreAsync` false, `validate`)
 * answers no errors, having stripped what it strips for `whitelist`, as this
 * strips it too. False means "perhaps not": ask class-validator, which then
 * builds the errors and their messages. So a rule this cannot run exactly
 * (a promise, an async rule it must await, groups) answers false, never true.
 *
 * It runs the same rules in the same order as class-validator's
 * `ValidationExecutor` (0.14): each rule's own `validate` with the same
 * arguments, the same conditions, whitelisting and nesting, but without the
 * error object class-validator builds for every property and the arrays it
 * filters for every call. On a valid payload that was most of the work and
 * nearly all of the garbage: about 30 KB a validated create request
 * (docs/PERFORMANCE.md, "class-validator's garbage").
 */
export function satisfiesRules(object: unknown, options: ValidatorOptions, ignoreAsync: boolean): boolean {
  for (const key of Object.keys(options)) {
    if (!CHECKED_OPTIONS.has(key) && (options as Record<string, unknown>)[key] !== undefined) return false;
  }
  if (typeof object !== 'object' || object === null) return false;
  return new RulesCheck(options, ignoreAsync).objectPasses(object);
}

class RulesCheck {
  private readonly forbidUnknownValues: boolean;

  constructor(
    private readonly options: CheckedOptions,
    private readonly ignoreAsync: boolean,
  ) {
    // class-validator: "any other value than false will enable it".
    this.forbidUnknownValues = options.forbidUnknownValues !== false;
  }

  /** `ValidationExecutor.execute`. */
  objectPasses(object: object): boolean {
    const plan = planOf(object.constructor);
    if (!plan) return false;
    if (this.forbidUnknownValues && !plan.hasRules) return false;
    if (this.options.whitelist && !this.whitelisted(object, plan)) return false;
    for (const property of plan.properties) {
      const value = (object as Record<string, unknown>)[property.name];
      if (value instanceof Promise && property.awaitsPromise) return false;
      if (!this.propertyPasses(object, value, property)) return false;
    }
    return true;
  }

  /** `ValidationExecutor.whitelist`: strips what has no rule, or fails where that is forbidden (class-validator then names it). */
  private whitelisted(object: object, plan: ClassPlan): boolean {
    for (const key of Object.keys(object)) {
      if (isWhitelisted(plan, key)) continue;
      if (this.options.forbidNonWhitelisted) return false;
      delete (object as Record<string, unknown>)[key];
    }
    return true;
  }

  /** `ValidationExecutor.performValidations`. */
  private propertyPasses(object: object, value: unknown, property: PropertyPlan): boolean {
    // class-validator runs every condition, then skips the property unless all of them held.
    let canValidate: unknown = true;
    for (const condition of property.conditions) {
      const holds = condition(object, value);
      canValidate = canValidate && holds;
    }
    if (!canValidate) return true;
    if (!this.testsPass(object, value, property.definedTests)) return false;
    if (this.skips(value)) return true;
    if (!this.testsPass(object, value, property.tests)) return false;
    return !property.nested || this.nestedPasses(value);
  }

  /** `ValidationExecutor.customValidations`, for a payload that must pass every test. */
  private testsPass(object: object, value: unknown, tests: readonly Test[]): boolean {
    for (const test of tests) {
      if (test.async) {
        if (this.ignoreAsync) continue;
        return false; // to be awaited: class-validator's to answer
      }
      const args: ValidationArguments = {
        targetName: object.constructor ? object.constructor.name : (undefined as unknown as string),
        property: test.metadata.propertyName,
        object,
        value,
        constraints: test.metadata.constraints,
      };
      if (test.metadata.each && isCollection(value)) {
        for (const item of itemsOf(value)) if (!outcomePasses(test.validate(item, args))) return false;
      } else if (!outcomePasses(test.validate(value, args))) {
        return false;
      }
    }
    return true;
  }

  /** `ValidationExecutor.nestedValidations`: an array's items (at any depth) and an object against their own class. */
  private nestedPasses(value: unknown): boolean {
    if (value === undefined) return true;
    if (isCollection(value)) {
      for (const item of itemsOf(value)) if (!this.skips(item) && !this.nestedPasses(item)) return false;
      return true;
    }
    return value instanceof Object && this.objectPasses(value);
  }

  /** Whether the skip options leave this value (a property's, or a nested array's item) untested. */
  private skips(value: unknown): boolean {
    if (value === undefined && this.options.skipUndefinedProperties === true) return true;
    if (value === null && this.options.skipNullProperties === true) return true;
    return (value === null || value === undefined) && this.options.skipMissingProperties === true;
  }
}

/** What class-validator validates item by item (`each`, nesting). */
const isCollection = (value: unknown): value is unknown[] | Set<unknown> | Map<unknown, unknown> =>
  Array.isArray(value) || value instanceof Set || value instanceof Map;

/** A collection's items as class-validator takes them: a Map's values. */
const itemsOf = (value: unknown[] | Set<unknown> | Map<unknown, unknown>): Iterable<unknown> =>
  value instanceof Map ? value.values() : value;

/** class-validator's own test, on its grouping object (so a key such as `constructor` is judged as it judges it). */
function isWhitelisted(plan: ClassPlan, key: string): boolean {
  const rules = plan.grouped[key];
  return !!rules && rules.length !== 0;
}

/** A rule's answer: a promise is class-validator's to await (or, in validateSync, to ignore); otherwise truthy passes. */
function outcomePasses(outcome: unknown): boolean {
  if (outcome !== null && typeof outcome === 'object' && typeof (outcome as { then?: unknown }).then === 'function') return false;
  return !!outcome;
}

/** The class's plan from class-validator's metadata (no groups, no `always`), or undefined where it has none to give. */
function planOf(type: unknown): ClassPlan | undefined {
  if (typeof type !== 'function') return undefined; // class-validator throws on such an object: its error to give
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(type, undefined as unknown as string, false, false, undefined);
  let plan = plans.get(metadatas);
  if (!plan) plans.set(metadatas, (plan = workOutPlan(metadatas)));
  return plan;
}

function workOutPlan(metadatas: Metadatas): ClassPlan {
  const storage = getMetadataStorage();
  const grouped = storage.groupByPropertyName(metadatas);
  const properties = Object.keys(grouped).map((name): PropertyPlan => {
    const rules = grouped[name].filter((rule) => rule.type !== IS_DEFINED && rule.type !== WHITELIST);
    const testsOf = (list: Metadatas): Test[] =>
      list.flatMap((metadata) =>
        storage.getTargetValidatorConstraints(metadata.constraintCls).map((constraint) => ({
          metadata,
          validate: (value: unknown, args: ValidationArguments) => constraint.instance.validate(value, args),
          async: constraint.async,
        })),
      );
    return {
      name,
      conditions: rules.filter((rule) => rule.type === CONDITIONAL).map((rule) => rule.constraints[0] as (object: object, value: unknown) => boolean),
      definedTests: testsOf(grouped[name].filter((rule) => rule.type === IS_DEFINED)),
      tests: testsOf(rules.filter((rule) => rule.type === CUSTOM)),
      nested: rules.some((rule) => rule.type === NESTED),
      awaitsPromise: rules.some((rule) => rule.type === PROMISE),
    };
  });
  return { grouped, properties, hasRules: metadatas.length > 0 };
}
