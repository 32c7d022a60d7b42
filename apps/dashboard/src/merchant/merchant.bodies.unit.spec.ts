import 'reflect-metadata';
import { BadRequestException } from '@nestjs/common';
import { parseInput } from '../http/parse-input';
import { DashboardRefundBody } from './merchant.bodies';

/** What the edge answers for a body: the parsed body, or the 400's message. */
const parsed = (body: unknown) => {
  try {
    return parseInput(DashboardRefundBody, body);
  } catch (error) {
    if (error instanceof BadRequestException) return error.message;
    throw error;
  }
};

describe('the body of a dashboard refund request', () => {
  it('given a reason of any script, with lines and tabs, then it is taken, trimmed', () => {
    expect(parsed({ reason: '  Le client a changé d’avis\n\t— 返金  ' })).toEqual({ reason: 'Le client a changé d’avis\n\t— 返金' });
  });

  it('given only spaces, then there is no reason', () => {
    expect(parsed({ reason: '   ' })).toEqual({});
  });

  it.each([
    ['NUL, which Postgres cannot store', 'a\u0000b'],
    ['a control character', 'a\u001b[2Jb'],
    ['a bidi override', 'a\u202eb'],
    ['half a surrogate pair, which Postgres cannot store', 'a\ud83d'],
  ])('given a reason with %s, then 400 before anything is asked of the refunds service', (_case, reason) => {
    expect(parsed({ reason })).toBe('reason must not contain control or invisible formatting characters');
  });
});
