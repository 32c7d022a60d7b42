import { type ArgumentMetadata, Injectable, ValidationPipe, type ValidationError } from '@nestjs/common';
import { DomainError, ErrorCode } from '@pp/contracts';
import { satisfiesRules } from '@pp/platform';
import type { ValidatorOptions } from 'class-validator';

/**
 * Validates bodies, params and queries against their classes at the edge:
 * unknown fields are refused, and the message names every failing field
 * ('Validation failed: amount must be a positive integer number of cents').
 * A valid value is answered by `satisfiesRules`, the same rules without
 * class-validator's error objects; class-validator names what is wrong in
 * any other (docs/PERFORMANCE.md, "class-validator's garbage").
 */
@Injectable()
export class EdgeValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      validationError: { target: false, value: true },
      exceptionFactory: (errors) =>
        new DomainError(ErrorCode.ValidationFailed, `Validation failed: ${[...new Set(describe(errors))].join('; ')}`),
    });
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A POST without a body is validated as an empty object, so the message names the missing fields.
    return super.transform(metadata.type === 'body' && value === undefined ? {} : value, metadata);
  }

  protected override validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> | ValidationError[] {
    return options && satisfiesRules(object, options, false) ? [] : super.validate(object, options);
  }
}

/** One message per failing rule, naming the field; a missing field is just "is required". */
function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    if (error.value === undefined && error.constraints) return [`${path} is required`];
    const own = Object.values(error.constraints ?? {}).map((message) =>
      message.startsWith('property ') || !parent ? message : `${parent}.${message}`,
    );
    return [...own, ...describe(error.children ?? [], path)];
  });
}
