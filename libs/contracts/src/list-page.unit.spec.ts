import { plainToInstance, Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min, validateSync } from 'class-validator';
import { PageLimit, toPageLimit } from './list-page';

/** The same rule written out decorator by decorator: PageLimit must behave exactly like it. */
class WrittenOut {
  @IsOptional()
  @Transform(toPageLimit)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;
}

class Composed {
  @PageLimit(100)
  limit?: number;
}

/** Each problem's value and messages in their order (the edge answers the first message). */
const problems = (type: new () => object, limit: unknown) =>
  validateSync(plainToInstance(type, limit === undefined ? {} : { limit })).map((error) => ({
    value: (error.target as { limit?: unknown }).limit,
    messages: Object.entries(error.constraints ?? {}),
  }));

describe('PageLimit', () => {
  it.each([[undefined], ['5'], ['100'], ['0'], ['101'], ['abc'], ['1.5'], ['9999'], [7], [-1]])('given limit %p, then it reads and refuses it exactly as the written-out decorators do', (limit) => {
    expect(problems(Composed, limit)).toEqual(problems(WrittenOut, limit));
  });

  it('given text digits within the range, then the limit becomes a number', () => {
    expect(plainToInstance(Composed, { limit: '42' }).limit).toBe(42);
    expect(problems(Composed, '42')).toEqual([]);
    expect(problems(Composed, '101')).toEqual([{ value: 101, messages: [['max', 'limit must not be greater than 100']] }]);
  });
});
