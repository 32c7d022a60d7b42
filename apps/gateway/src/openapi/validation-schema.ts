import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

type Constraints = unknown[] | undefined;

/** How each class-validator rule reads in JSON Schema; rules without an entry add nothing. */
const RULES: Record<string, (schema: SchemaObject, constraints: Constraints) => void> = {
  isString: (s) => void (s.type = 'string'),
  isInt: (s) => void (s.type = 'integer'),
  isNumber: (s) => void (s.type = 'number'),
  isBoolean: (s) => void (s.type = 'boolean'),
  isObject: (s) => Object.assign(s, { type: 'object', additionalProperties: true }),
  isArray: (s) => void (s.type = 'array'),
  isEmail: (s) => Object.assign(s, { type: 'string', format: 'email' }),
  isUrl: (s) => Object.assign(s, { type: 'string', format: 'uri' }),
  isIso8601: (s) => Object.assign(s, { type: 'string', format: 'date-time' }),
  isUtcTimestamp: (s, c) => Object.assign(s, { type: 'string', format: 'date-time', pattern: (c?.[0] as RegExp).source }),
  min: (s, c) => void (s.minimum = c?.[0] as number),
  max: (s, c) => void (s.maximum = c?.[0] as number),
  minLength: (s, c) => void (s.minLength = c?.[0] as number),
  maxLength: (s, c) => void (s.maxLength = c?.[0] as number),
  length: (s, c) => Object.assign(s, { minLength: c?.[0], ...(c?.[1] !== undefined ? { maxLength: c[1] } : {}) }),
  matches: (s, c) => void (s.pattern = c?.[0] instanceof RegExp ? c[0].source : String(c?.[0])),
  equals: (s, c) => Object.assign(s, { enum: [c?.[0]], type: typeof c?.[0] }),
  isIn: (s, c) => Object.assign(s, { enum: c?.[0] as unknown[], type: typeof (c?.[0] as unknown[])[0] }),
  arrayMinSize: (s, c) => void (s.minItems = c?.[0] as number),
  arrayMaxSize: (s, c) => void (s.maxItems = c?.[0] as number),
};

/**
 * The JSON Schema of a body class, read from its class-validator rules, so
 * the OpenAPI document describes exactly what the edge accepts (the contract
 * classes in libs/contracts carry no OpenAPI decorators of their own).
 */
export function schemaOf(target: Function): SchemaObject {
  const rules = getMetadataStorage().getTargetValidationMetadatas(target, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const rule of rules) byProperty.set(rule.propertyName, [...(byProperty.get(rule.propertyName) ?? []), rule]);
  const properties: Record<string, SchemaObject> = {};
  const required: string[] = [];
  for (const [property, propertyRules] of byProperty) {
    const schema: SchemaObject = {};
    const items: SchemaObject = {};
    let optional = false;
    for (const rule of propertyRules) {
      if (rule.type === 'conditionalValidation') {
        optional = true;
        if (rule.name !== 'isOptional') schema.nullable = true; // ValidateIf: used here for "null clears"
        continue;
      }
      RULES[rule.name ?? '']?.(rule.each ? items : schema, rule.constraints);
    }
    if (Object.keys(items).length > 0) Object.assign(schema, { type: 'array', items });
    properties[property] = schema;
    if (!optional) required.push(property);
  }
  return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
}
