import { listFilters } from './list-filters';

describe('listFilters', () => {
  const filters = (status?: string, before?: string | null, session?: string) => [
    { condition: (p: string) => `status = ${p}::text`, value: status },
    { condition: (p: string) => `position < ${p}::bigint`, value: before },
    { condition: (p: string) => `session_id = ${p}::text`, value: session },
  ];

  it('given no filter asked for, then no condition and no value', () => {
    expect(listFilters(filters(undefined, null), 4)).toEqual({ sql: '', values: [] });
  });

  it('given some filters, then only their conditions, numbered in order from the first free placeholder', () => {
    expect(listFilters(filters('FAILED', null, 'cs_1'), 4)).toEqual({ sql: ' AND status = $4::text AND session_id = $5::text', values: ['FAILED', 'cs_1'] });
    expect(listFilters(filters(undefined, '42'), 3)).toEqual({ sql: ' AND position < $3::bigint', values: ['42'] });
  });
});
