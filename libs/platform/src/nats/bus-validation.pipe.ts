import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { DomainError, ErrorCode } from '@pp/contracts';
import { type ValidationError, validateSync } from 'class-validator';
import { adoptAsInstance } from '../validation/adopt-as-instance';
import { satisfiesRules } from '../validation/rules-check';

/** What `@Payload()` may be typed with that has no class to validate against (Handles refuses them for requests). */
const UNVALIDATED_TYPES: readonly unknown[] = [String, Boolean, Number, Array, Object, Buffer, Date];

const BUS_RULES = { whitelist: true } as const;

/**
 * Validates each bus request against its request class (whitelisting unknown
 * properties away) and hands the handler the class instance: what Nest's
 * ValidationPipe({ whitelist: true, transform: true }) did, with its message,
 * but synchronously. Nest's pipe validates through class-validator's
 * promise-based path and several generic steps per call, which cost twice as
 * much CPU as the validation itself on every internal hop (docs/PERFORMANCE.md).
 * The payload, parsed for this request alone, becomes the instance itself
 * rather than a copy (adoptAsInstance). A valid payload is answered by
 * `satisfiesRules`, which runs the same rules without building class-validator's
 * error objects; class-validator itself names what is wrong in any other.
 */
export class BusValidationPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const type = metadata.metatype;
    if (metadata.type !== 'body' || !type || UNVALIDATED_TYPES.includes(type)) return value;
    stripProtoKeys(value);
    const instance = adoptAsInstance(type, value);
    if (satisfiesRules(instance, BUS_RULES, true)) return instance;
    const errors = validateSync(instance, BUS_RULES);
    if (errors.length > 0) throw new DomainError(ErrorCode.ValidationFailed, `Validation failed: ${describe(errors)}`);
    return instance;
  }
}

const describe = (errors: ValidationError[]): string =>
  errors.flatMap((error) => Object.values(error.constraints ?? { [error.property]: `${error.property} is invalid` })).join('; ');

/** `__proto__` keys of parsed JSON are own properties; class-transformer would copy them onto the prototype chain. */
function stripProtoKeys(value: unknown): void {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return;
  if (Array.isArray(value)) {
    for (const item of value) stripProtoKeys(item);
    return;
  }
  delete (value as Record<string, unknown>).__proto__;
  for (const key of Object.keys(value)) stripProtoKeys((value as Record<string, unknown>)[key]);
}
