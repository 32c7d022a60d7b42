import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiQuery, ApiResponse } from '@nestjs/swagger';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '@pp/contracts';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { schemaOf } from './validation-schema';

/** Documents a JSON body by the class that validates it. */
export const ApiJsonBody = (body: Function) => ApiBody({ required: true, schema: schemaOf(body) });

/** Documents a successful JSON answer. */
export const ApiJsonResponse = (status: number, description: string, schema: SchemaObject) =>
  applyDecorators(ApiResponse({ status, description, schema }));

/** Documents a list's `limit` from the page-limit rule in libs/contracts (list-page.ts). */
export const ApiPageLimitQuery = (max: number = MAX_PAGE_LIMIT, fallback: number = DEFAULT_PAGE_LIMIT) =>
  ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: max, default: fallback } });
