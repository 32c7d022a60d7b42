import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { schemaOf } from './validation-schema';

/** Documents a JSON body by the class that validates it. */
export const ApiJsonBody = (body: Function) => ApiBody({ required: true, schema: schemaOf(body) });

/** Documents a successful JSON answer. */
export const ApiJsonResponse = (status: number, description: string, schema: SchemaObject) =>
  applyDecorators(ApiResponse({ status, description, schema }));
