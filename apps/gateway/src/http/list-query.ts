import { DomainError, ErrorCode, type ListPage } from '@pp/contracts';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { FastifyReply } from 'fastify';
import { unsafeInputProblem } from '@pp/platform';
import { ApiError } from './api-error';

export const INVALID_QUERY = 'Invalid query parameters';

/**
 * Parses a list route's query string with its contract class. Any problem,
 * unknown parameters included, is 400 'Invalid query parameters' (PRODUCT-RULES §7),
 * never the body's 'Validation failed' message.
 */
export function parseListQuery<T extends object>(params: new () => T, raw: unknown): T {
  // A key objects reserve would be skipped by the parse below, not refused as unknown (unsafe-input.ts).
  if (typeof raw === 'object' && raw !== null && unsafeInputProblem(raw, 'query')) throw new ApiError(400, INVALID_QUERY);
  const parsed = plainToInstance(params, raw ?? {});
  const errors = validateSync(parsed, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length > 0) throw new ApiError(400, INVALID_QUERY);
  return parsed;
}

/** A `starting_after` that names nothing of the caller's is a bad parameter, not a missing resource. */
export async function listPage<T>(fetch: () => Promise<ListPage<T>>, reply: FastifyReply): Promise<T[]> {
  let page: ListPage<T>;
  try {
    page = await fetch();
  } catch (error) {
    if (error instanceof DomainError && error.code === ErrorCode.NotFound) throw new ApiError(400, INVALID_QUERY);
    throw error;
  }
  reply.header('X-Has-More', String(page.has_more));
  return page.data;
}

/**
 * A page of a list the service answers whole (one short enough never to be paged in the database): the items after
 * `startingAfter` (an id not in the list is a bad parameter, as listPage answers it), at most `limit`, with X-Has-More.
 */
export function pageInMemory<T extends { id: string }>(items: readonly T[], params: { limit?: number; starting_after?: string }, fallbackLimit: number, reply: FastifyReply): T[] {
  const from = params.starting_after === undefined ? 0 : items.findIndex((item) => item.id === params.starting_after) + 1;
  if (from === 0 && params.starting_after !== undefined) throw new ApiError(400, INVALID_QUERY);
  const to = from + (params.limit ?? fallbackLimit);
  reply.header('X-Has-More', String(items.length > to));
  return items.slice(from, to);
}
