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

  it('given a tuple value, then each of its elements its own placeholder, in order, and the filters after it numbered past them', () => {
    const keyset = (after: readonly [Date, string] | null, status?: string) => [
      { condition: (at: string, id: string) => `(created_at, id) < (${at}::timestamptz, ${id}::text)`, value: after, tuple: true },
      { condition: (p: string) => `status = ${p}::text`, value: status },
    ];
    const at = new Date('2026-12-06T10:00:00.123Z');
    expect(listFilters(keyset([at, 'cs_1'], 'PENDING'), 4)).toEqual({
      sql: ' AND (created_at, id) < ($4::timestamptz, $5::text) AND status = $6::text',
      values: [at, 'cs_1', 'PENDING'],
    });
    expect(listFilters(keyset(null, 'PENDING'), 4)).toEqual({ sql: ' AND status = $4::text', values: ['PENDING'] });
  });
});
