import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '@pp/contracts';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { schemaOf } from './validation-schema';
import type { AnswerSchema } from './view-schema';

/** Documents a JSON body by the class that validates it; `required: false` for a body that may be left out. */
export const ApiJsonBody = (body: Function, { required = true }: { required?: boolean } = {}) => ApiBody({ required, schema: schemaOf(body) });

/** Documents a successful JSON answer by the schema of its view (view-schema.ts), never by a hand-written one. */
export const ApiJsonResponse = (status: number, description: string, schema: AnswerSchema) =>
  applyDecorators(ApiResponse({ status, description, schema: schema as SchemaObject }));

/** Documents a list's `limit` from the page-limit rule in libs/contracts (list-page.ts). */
export const ApiPageLimitQuery = (max: number = MAX_PAGE_LIMIT, fallback: number = DEFAULT_PAGE_LIMIT) =>
  ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: max, default: fallback } });

/** Documents an idempotent POST: `created` on the first request, 200 with the same body on a replay of its Idempotency-Key. */
export const ApiIdempotentResponse = (created: { status: number; description: string }, schema: AnswerSchema) =>
  applyDecorators(
    ApiJsonResponse(created.status, created.description, schema),
    ...(created.status === 200 ? [] : [ApiJsonResponse(200, 'Replay of an earlier request with the same Idempotency-Key (header X-Cache-Lookup: HIT)', schema)]),
  );
