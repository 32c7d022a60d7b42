import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/*
 * OpenAPI answer schemas written against the view types they document. A view
 * in libs/contracts (or identity.views.ts) is the one source: `viewSchema<V>`
 * takes one schema per field of V, and the compiler refuses a missing or extra
 * field, a wrong JSON type, an enum value the view does not allow, a nullable
 * field not marked nullable (or the reverse), and an optional field not marked
 * optional (or the reverse). `required` is derived from the same marks, so
 * the document cannot drift from what the handlers return.
 */

type Defined<T> = Exclude<T, null | undefined>;

type JsonType<T> = T extends string
  ? 'string'
  : T extends number
    ? 'integer' | 'number'
    : T extends boolean
      ? 'boolean'
      : T extends readonly unknown[]
        ? 'array'
        : 'object';

type Nullability<T> = null extends T ? { nullable: true } : { nullable?: false };

type EnumOf<T> = [Defined<T>] extends [string] ? { enum?: readonly Defined<T>[] } : { enum?: never };

/** The schema of a field of type T. */
export type PropertySchema<T> = Omit<SchemaObject, 'type' | 'nullable' | 'enum'> & { type: JsonType<Defined<T>> } & Nullability<T> & EnumOf<T>;

type OptionalKeys<V> = { [K in keyof V]-?: object extends Pick<V, K> ? K : never }[keyof V];

type Optionality<V, K extends keyof V> = K extends OptionalKeys<V> ? { optional: true } : { optional?: never };

/** One schema per field of V; `optional: true` exactly on V's optional fields. */
export type ViewProperties<V> = { [K in keyof V]-?: PropertySchema<V[K]> & Optionality<V, K> };

declare const builtFromView: unique symbol;

/**
 * An object schema as `viewSchema` builds it (the brand exists only for the
 * compiler: an answer documented by hand does not type as one). Not nullable
 * until a field's schema spreads it with `nullable: true`.
 */
export type ObjectSchema = Omit<SchemaObject, 'type' | 'nullable' | 'enum'> & { type: 'object'; nullable?: false; enum?: never; readonly [builtFromView]: true };

/** What an answer is documented with: a view's schema or a list of one. */
export type AnswerSchema = ObjectSchema | ListSchema;
export type ListSchema = { type: 'array'; items: ObjectSchema };

/** The object schema of view V from its fields' schemas. */
export function viewSchema<V>(properties: ViewProperties<V>, description?: string): ObjectSchema {
  const required: string[] = [];
  const documented: Record<string, SchemaObject> = {};
  const fields = properties as Record<string, SchemaObject & { optional?: true }>;
  for (const [name, { optional, ...schema }] of Object.entries(fields)) {
    if (!optional) required.push(name);
    documented[name] = schema;
  }
  return { type: 'object', ...(description ? { description } : {}), required, properties: documented } as ObjectSchema;
}

/** The schema of a list answer. */
export const listSchema = (item: ObjectSchema): ListSchema => ({ type: 'array', items: item });

export const DATE_TIME = { type: 'string', format: 'date-time' } as const;
export const NULLABLE_DATE_TIME = { type: 'string', format: 'date-time', nullable: true } as const;
export const NULLABLE_STRING = { type: 'string', nullable: true } as const;
